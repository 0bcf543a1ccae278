// Whitespace, control characters (NUL included) and format characters (the zero-width space and
// joiners, the BOM): none of them shows as text.
const INVISIBLE = /[\s\p{Cc}\p{Cf}]/gu;

/** Whether `text` is blank: nothing left once whitespace, control and zero-width characters are taken out. Every validation that refuses blank text asks this. */
export function isBlank(text: string): boolean {
  return text.replace(INVISIBLE, '') === '';
}

// Finds characters that are not text (C0 controls other than tab, LF and CR; Unicode
// noncharacters) in what the service answers, by a test written out here rather than with the
// parsers' own pattern, so that a mistake in that pattern cannot hide itself.

export function isNotText(codePoint: number): boolean {
  if (codePoint < 0x20) return codePoint !== 0x09 && codePoint !== 0x0a && codePoint !== 0x0d;
  return (codePoint >= 0xfdd0 && codePoint <= 0xfdef) || (codePoint & 0xfffe) === 0xfffe;
}

/** Every string in a JSON-like value, object keys included. */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => [key, ...stringsIn(inner)]);
  return [];
}

/** The strings of `value` that hold a character that is not text; [] when there is none. */
export function notTextIn(value: unknown): string[] {
  return stringsIn(value).filter((text) => [...text].some((char) => isNotText(char.codePointAt(0)!)));
}

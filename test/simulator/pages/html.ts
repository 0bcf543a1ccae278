/**
 * Escaping the way WordPress prints content: wptexturize turns quotes into numeric entities,
 * titles use `&#038;` for `&` in text and esc_attr gives `&amp;` in attributes. Parsers must
 * decode both forms.
 */
const TYPOGRAPHIC: Record<string, string> = { '’': '&#8217;', '‘': '&#8216;', '“': '&#8220;', '”': '&#8221;', '…': '&#8230;' };

function typographic(value: string): string {
  return value.replace(/[’‘“”…]/g, (char) => TYPOGRAPHIC[char] ?? char);
}

/** For text nodes. */
export function text(value: string): string {
  return typographic(value.replace(/&/g, '&#038;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
}

/** For double-quoted attribute values. */
export function attr(value: string): string {
  return typographic(value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'));
}

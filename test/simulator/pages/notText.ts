/**
 * The `not-text` fault: the same page with C0 control characters and Unicode noncharacters in every
 * text, both raw and as character references, as a title pasted from elsewhere or a broken plugin
 * leaves them. Every text node outside scripts and styles, and every attribute a reader sees as
 * text or follows as a link (`title`, `alt`, `href`, image sources, dates, meta content, form
 * values), gets them after its first character: inside a word, so that a parser must drop them
 * rather than turn them into a space. Identifiers (`class`, `id`, a `#fragment` link, a player's
 * base64 `value`) are left alone: they are not text.
 */

/** Raw: NUL, SOH, ESC, BS, VT, FF, US, U+FDD0, U+FFFE, U+FFFF, U+1FFFE, U+10FFFF. */
export const RAW_NOT_TEXT = '\u0000\u0001\u001b\u0008\u000b\u000c\u001f\ufdd0\ufffe\uffff\u{1fffe}\u{10ffff}';
/** The same kinds as references, decimal and hexadecimal, the way a broken plugin escapes them. */
export const REFERENCED_NOT_TEXT = '&#1;&#x1b;&#X1F;&#0008;&#xb;&#65534;&#xFFFF;&#xfdef;&#x2FFFE;&#1114111;';

const DIRT = RAW_NOT_TEXT + REFERENCED_NOT_TEXT;

// Attributes holding text or a link; `value` only on form inputs (a player option's is base64).
const TEXT_ATTRIBUTES =
  /(\s(?:title|alt|href|src|srcset|data-src|data-lazy-src|data-cfsrc|data-bg|data-jtitle|datetime|content)=")([^"]*)"/g;
const INPUT_VALUE = /(\svalue=")([^"]*)"/g;
// Scripts and styles, whole; tags; and the text between them.
const TOKEN = /<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>|<[^>]*>|[^<]+/gi;

export function withNotText(html: string): string {
  return html.replace(TOKEN, (token, rawTextElement: string | undefined) => {
    if (rawTextElement !== undefined) return token;
    if (token.startsWith('<')) return dirtyTag(token);
    return dirtyText(token);
  });
}

function dirtyTag(tag: string): string {
  if (tag.startsWith('</') || tag.startsWith('<!')) return tag;
  const withText = tag.replace(TEXT_ATTRIBUTES, (_match, name: string, value: string) => `${name}${dirtyValue(value)}"`);
  return /^<input\b/i.test(withText)
    ? withText.replace(INPUT_VALUE, (_match, name: string, value: string) => `${name}${dirtyValue(value)}"`)
    : withText;
}

// Only values that start with a letter or digit: a `#fragment` names an element, and an empty value stays empty.
function dirtyValue(value: string): string {
  return /^[\p{L}\p{N}]/u.test(value) ? afterFirstCharacter(value, 0) : value;
}

function dirtyText(text: string): string {
  const first = text.search(/\S/);
  if (first < 0) return text;
  // Before a reference, not inside it.
  return text[first] === '&' ? `${text.slice(0, first)}${DIRT}${text.slice(first)}` : afterFirstCharacter(text, first);
}

function afterFirstCharacter(text: string, at: number): string {
  const next = at + String.fromCodePoint(text.codePointAt(at)!).length;
  return `${text.slice(0, next)}${DIRT}${text.slice(next)}`;
}

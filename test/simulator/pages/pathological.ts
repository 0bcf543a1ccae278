/**
 * The `pathological` fault: about 1 MB of markup no real page has (3 MB for `oversize`), put at the start of a page's
 * main column, the rest of the page whole (WordPress markers, footer, `</html>`), so that it gets
 * past every check before the parser. Each shape is one that an HTML parser or the parsers' own
 * patterns handle in more than linear time; a broken mirror, a plugin gone wrong or a hijacked
 * domain can serve any of them.
 */
export type PathologicalShape =
  /** 200,000 `<div>` opened inside each other (976 KB): the open-element stack grows with every one. */
  | 'deep-nesting'
  /** Opening tags whose `>` never comes: every tag pattern rescans the rest of the page from each. */
  | 'unclosed-tags'
  /** An episode list whose items never close (a `span` left open keeps the next `li` from closing one), each nesting the next: ~170,000 deep. */
  | 'unclosed-list'
  /** 3 MB of plain paragraphs: larger than any page of the site (the size bound is 2 MB). */
  | 'oversize';

const TARGET_CHARS = 1_000_000;

function fill(unit: string, chars = TARGET_CHARS): string {
  return unit.repeat(Math.ceil(chars / unit.length));
}

const MARKUP: Record<PathologicalShape, () => string> = {
  'deep-nesting': () => '<div>'.repeat(200_000),
  'unclosed-tags': () => fill('<div class="postbody a '),
  'unclosed-list': () => `<div class="eplister"><ul>${fill('<li><span>1')}`,
  oversize: () => fill('<p>Lorem ipsum dolor sit amet.</p>\n', 3_000_000),
};

export function pathologicalPage(html: string, shape: PathologicalShape): string {
  const column = html.indexOf('<div class="postbody">');
  const at = column < 0 ? html.indexOf('<body') : column + '<div class="postbody">'.length;
  return `${html.slice(0, at)}${MARKUP[shape]()}${html.slice(at)}`;
}

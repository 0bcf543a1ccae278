import { load, type Cheerio, type CheerioAPI } from 'cheerio/slim';
import { isTag, type AnyNode, type Element, type ParentNode } from 'domhandler';
import { cleanText } from './text.js';
import { allMatches, classListOf, firstMatch, firstMatches, type Matcher } from './walk.js';

// Ad rows and overlays carry their own `article.bs`/`img` decoys, and the sidebar has its own
// lists; nothing inside `#sidebar, .kln, .blox, #teaser3, #overplay` belongs to a page's content.
const FOREIGN_IDS = new Set(['sidebar', 'teaser3', 'overplay']);
const FOREIGN_CLASS = /(?:^|\s)(?:kln|blox)(?:\s|$)/;

// The theme's layout puts `div.postbody` before `div#sidebar`.
const POSTBODY_TAG = /<div\s[^>]*\bclass\s*=\s*["']?(?:[^"'>]*\s)?postbody[\s"'>]/gi;
const SIDEBAR_TAG = /<div\s[^>]*\bid\s*=\s*["']?sidebar[\s"'>]/gi;
const SIDEBAR_WORD = /sidebar/gi;

/**
 * Where the `#sidebar` opening tag starts at or after `from`. Speed only: the tag pattern starts from
 * the last `>` before the first "sidebar" word rather than at every `<div`, since no such tag can
 * start earlier; the answer is the same.
 */
function sidebarTagIndex(html: string, from: number): number | undefined {
  SIDEBAR_WORD.lastIndex = from;
  const word = SIDEBAR_WORD.exec(html);
  if (word === null) return undefined;
  SIDEBAR_TAG.lastIndex = Math.max(from, html.lastIndexOf('>', word.index) + 1);
  return SIDEBAR_TAG.exec(html)?.index;
}

/**
 * The page's markup from the main column's opening tag up to the sidebar's: the one cut of the main
 * column, which parsers hand on rather than cut again. Speed only: the head, sidebar and footer are
 * over half of a page and hold nothing a main-column parser reads, so the cut spares parsing them;
 * correctness rests on the scoping (`within`, `isForeign`), which holds on an uncut page too. The
 * whole page when the main column is not found; the rest of the page from it when the sidebar is
 * not found after it.
 */
export function mainColumnMarkup(html: string): string {
  POSTBODY_TAG.lastIndex = 0;
  const start = POSTBODY_TAG.exec(html)?.index;
  if (start === undefined) return html;
  return html.slice(start, sidebarTagIndex(html, start));
}

// A form up to its end tag, with no other form tag in between (forms never nest): a form whose end
// is missing is kept. The runs of `[^<]*` (rather than `[\s\S]*?`) are for speed only.
const FORM = /<form[\s>][^<]*(?:<(?!\/?form[\s>])[^<]*)*<\/form\s*>/gi;
// The same for `noscript`: lazy-load plugins follow each lazy image with a plain copy inside one.
const NOSCRIPT = /<noscript[\s>][^<]*(?:<(?!\/?noscript[\s>])[^<]*)*<\/noscript\s*>/gi;

/**
 * The main column (cut once) without what a page of cards never reads, for speed only: forms (the
 * filter list's quick filter is most of its main column; a form holds inputs, never
 * cards or a pager) and `noscript` copies of lazy images (a card's poster is its first image, the
 * lazy one, which carries the same URL).
 */
export function listingMarkup(html: string): string {
  return mainColumnMarkup(html).replace(FORM, '').replace(NOSCRIPT, '');
}

/** A main column parsed once: its document, and its root element (`.postbody`, else `#content`, else the document). */
export interface LoadedColumn {
  $: CheerioAPI;
  main: Cheerio<AnyNode>;
}

/**
 * Parses a main column's markup, cut by `mainColumnMarkup` or `listingMarkup` (and perhaps
 * shortened since), without cutting it again: a cut column starts with the `.postbody` tag, so
 * its root is the first node. Markup the cut left whole (no `.postbody` tag) is searched as before.
 */
export function loadMainColumn(markup: string): LoadedColumn {
  const $ = load(markup);
  const document = $.root()[0]!;
  const first = document.children[0];
  const cutRoot = first !== undefined && isTag(first) && classListOf(first).includes('postbody') ? first : undefined;
  const root =
    cutRoot ??
    firstMatch(document, (_el, classes) => classes.includes('postbody')) ??
    firstMatch(document, (el) => el.attribs['id'] === 'content');
  return { $, main: root === undefined ? $.root() : $(root) };
}

/**
 * `loadMainColumn`, with the first element each matcher accepts found in one walk of the column
 * (a detail page's blocks: info box, episode list, player).
 */
export function loadMainColumnBlocks<Role extends string>(markup: string, blocks: Record<Role, Matcher>) {
  const { $, main } = loadMainColumn(markup);
  // A Document when the page has no main column at all; the walk reads only its children.
  const root = main.get(0) as Element;
  return { $, main: root, found: firstMatches(root, blocks) };
}

/**
 * The page's markup from the sidebar's opening tag on, for page kinds that read only its widgets:
 * the main column before it is as large again. The whole page when the sidebar is not found.
 */
export function sidebarMarkup(html: string): string {
  const start = sidebarTagIndex(html, 0);
  return start === undefined ? html : html.slice(start);
}

// Every sidebar widget is a `div.section`.
const SECTION_TAG = /<div\s[^>]*\bclass\s*=\s*["']?(?:[^"'>]*\s)?section[\s"'>]/gi;

/**
 * The markup of each sidebar widget with a heading (`h1`–`h4`, its text perhaps inside a `span`)
 * that reads one of `names`, case-insensitive, in page order: from the widget's `div.section`
 * opening tag to the next widget's (the page's end after the last). One widget is a few KB of the
 * sidebar's ~80. The markup test only preselects: callers confirm the heading on the parsed widget,
 * and parse the whole sidebar when no widget here holds it. Empty when the page has no sidebar.
 */
export function sidebarWidgetMarkups(html: string, names: readonly string[]): string[] {
  const sidebar = sidebarTagIndex(html, 0);
  if (sidebar === undefined) return [];
  const starts: number[] = [];
  SECTION_TAG.lastIndex = sidebar;
  for (let tag = SECTION_TAG.exec(html); tag !== null; tag = SECTION_TAG.exec(html)) starts.push(tag.index);
  const heading = headingPattern(names);
  return starts.map((start, i) => html.slice(start, starts[i + 1])).filter((widget) => heading.test(widget));
}

// `<h3>Genres</h3>`, `<h3><span>NEW MOVIE</span>`, `<h3>New Movie <a class="vl">`; names are plain words.
function headingPattern(names: readonly string[]): RegExp {
  const alternatives = names.map((name) => name.replace(/\s+/g, '\\s+'));
  return new RegExp(`<h[1-4]\\b[^>]*>(?:\\s*<[^>]+>)*\\s*(?:${alternatives.join('|')})\\s*<`, 'i');
}

/** `selector` matches under `scope`, minus those inside ads, overlays or the sidebar. */
export function within(scope: Cheerio<AnyNode>, selector: string): Cheerio<Element> {
  return scope.find(selector).filter((_, el) => !isForeign(el));
}

/**
 * The first element under `scope` that `match` accepts, minus those inside ads, overlays or the
 * sidebar: `within(scope, selector).first()` as a walk that stops at the match, where the selector
 * query would go through the whole scope first.
 */
export function firstWithin(scope: Cheerio<AnyNode>, match: Matcher): Element | undefined {
  const root = scope[0];
  if (root === undefined || !('children' in root) || isForeign(root)) return undefined;
  return firstMatch(root, (el, classes) => match(el, classes) && !isForeign(el, root));
}

/** Every element under `scope` that `match` accepts, minus those inside ads, overlays or the sidebar: `within` as one walk. */
export function allWithin(scope: Cheerio<AnyNode>, match: Matcher): Element[] {
  return scope
    .toArray()
    .flatMap((root) =>
      'children' in root && !isForeign(root) ? allMatches(root, (el, classes) => match(el, classes) && !isForeign(el, root)) : [],
    );
}

/**
 * Whether `node` or an ancestor below `top` (the document when not given) is an ad, an overlay or
 * the sidebar. A plain ancestor walk rather than a selector `closest()` per candidate, for speed
 * only; callers that walk a scope they checked once stop at it.
 */
function isForeign(node: ParentNode, top: ParentNode | null = null): boolean {
  for (let at: ParentNode | null = node; at !== null && at !== top; at = at.parent) {
    if ('attribs' in at && (FOREIGN_IDS.has(at.attribs['id'] ?? '') || FOREIGN_CLASS.test(at.attribs['class'] ?? ''))) return true;
  }
  return false;
}

/** Text of a block's heading without its "View All" link, lower-cased for comparison. */
function headingText($: CheerioAPI, heading: Cheerio<Element>): string {
  const own = heading
    .contents()
    .filter((_, node) => !(isTag(node) && node.name === 'a' && $(node).hasClass('vl')))
    .text();
  return cleanText(own).toLowerCase();
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4']);

/** The heading (`h1`–`h4`) of a `.releases` header. */
export function headingIn(header: Element): Element | undefined {
  return firstMatch(header, (el) => HEADINGS.has(el.name));
}

/**
 * The block (the parent of a `.releases` header) whose heading is one of `names`, case-insensitive.
 * Blocks are found by heading, not position, because the theme lets sections be hidden or reordered.
 */
export function blockByHeading($: CheerioAPI, headers: Cheerio<Element>, names: readonly string[]): Cheerio<Element> | null {
  for (const header of headers.toArray()) {
    const heading = headingIn(header);
    if (heading !== undefined && names.includes(headingText($, $(heading)))) return $(header).parent();
  }
  return null;
}

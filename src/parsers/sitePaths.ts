import { canonicalHref } from './canonical.js';
import { decodedPathSegment, resolveHttpUrl } from './url.js';

// Where a site on the theme keeps its series and its series list, read off any of its pages: the
// quick-filter form submits to the list, the sidebar's series widgets and the breadcrumbs link
// series pages. Plain scans of the page's markup, no document: they run only while a path is
// unknown, on pages fetched for their own sake.

const FORM_TAG = /<form\b[^>]*>/gi;
const ANCHOR_TAG = /<a\s[^>]*>/gi;
// `a.series`: the series links of the sidebar's Popular Series and New Movie widgets.
const SERIES_CLASS = /\bclass\s*=\s*["']?(?:[^"'>]*\s)?series(?![\w-])/i;
const BREADCRUMB = /\bclass\s*=\s*["']?(?:[^"'>]*\s)?ts-breadcrumb(?![\w-])/i;
const BREADCRUMB_ITEM = /\bitemprop\s*=\s*["']?item["'\s>]/i;
const SINGULAR_TYPE = /\bitemtype\s*=\s*["']?https?:\/\/schema\.org\/(CreativeWorkSeries|Episode)["'\s>]/i;
// The series box of a series page (`div.bixbox.animefull`), or its schema type.
const SERIES_BOX = /\bclass\s*=\s*["']?(?:[^"'>]*\s)?animefull(?![\w-])/i;
const QUICK_FILTER = /quickfilter/i;
/** How far before a form its `div.quickfilter` may open. */
const QUICK_FILTER_REACH = 200;
/** How far after the breadcrumb's opening tag its links are looked for. */
const BREADCRUMB_REACH = 4_000;

/** An attribute's value in one tag's markup; undefined when the tag has no such attribute. */
function attributeOf(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return match === null ? undefined : (match[1] ?? match[2] ?? match[3]);
}

/** The path up to a page's last segment, with its slashes: "/seri/" for "/seri/soul-land/", "/" for "/soul-land/". */
function directoryOf(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed.slice(0, trimmed.lastIndexOf('/') + 1) || '/';
}

/**
 * The series list's path ("/anime/", "/seri/"): the action of the theme's quick-filter form
 * (`form.filters`, or the form of `div.quickfilter`), relative or absolute; null when the page has
 * no such form. The search form (action "/") is not it.
 */
export function readListPath(html: string, pageUrl: string): string | null {
  FORM_TAG.lastIndex = 0;
  for (let match = FORM_TAG.exec(html); match !== null; match = FORM_TAG.exec(html)) {
    const tag = match[0];
    const classes = attributeOf(tag, 'class') ?? '';
    const inQuickFilter = QUICK_FILTER.test(html.slice(Math.max(0, match.index - QUICK_FILTER_REACH), match.index));
    if (!/(?:^|\s)filters(?:\s|$)/.test(classes) && !inQuickFilter) continue;
    const action = resolveHttpUrl(attributeOf(tag, 'action'), pageUrl);
    if (action === null || action.pathname === '/') continue;
    return `${action.pathname.replace(/\/+$/, '')}/`;
  }
  return null;
}

/** A series page the site links: the path its series pages sit under, and the series' slug. */
export interface SeriesLink {
  /** "/seri/", "/anime/", or "/" for a site whose series pages sit at its root. */
  seriesPath: string;
  slug: string;
}

/** The series page at `href` (resolved against `pageUrl`): its path and slug; null for a link to no page. */
export function seriesLinkOf(href: string | undefined, pageUrl: string): SeriesLink | null {
  const url = resolveHttpUrl(href, pageUrl);
  const segment = url?.pathname.replace(/\/+$/, '').split('/').pop();
  if (url === null || !segment) return null;
  return { seriesPath: directoryOf(url.pathname), slug: decodedPathSegment(segment) };
}

/**
 * Where the page links a series: the first `a.series` (the sidebar's series widgets, on every
 * page of the theme), else, on a series or episode page, the breadcrumb's second link (Home ›
 * Series › Episode). Null when the page links none.
 */
export function readSeriesLink(html: string, pageUrl: string): SeriesLink | null {
  ANCHOR_TAG.lastIndex = 0;
  for (let match = ANCHOR_TAG.exec(html); match !== null; match = ANCHOR_TAG.exec(html)) {
    if (!SERIES_CLASS.test(match[0])) continue;
    const link = seriesLinkOf(attributeOf(match[0], 'href'), pageUrl);
    if (link !== null) return link;
  }
  return SINGULAR_TYPE.test(html) ? breadcrumbSeries(html, pageUrl) : null;
}

function breadcrumbSeries(html: string, pageUrl: string): SeriesLink | null {
  const start = BREADCRUMB.exec(html)?.index;
  if (start === undefined) return null;
  const crumbs = html.slice(start, start + BREADCRUMB_REACH).match(ANCHOR_TAG) ?? [];
  const series = crumbs.filter((tag) => BREADCRUMB_ITEM.test(tag))[1];
  return series === undefined ? null : seriesLinkOf(attributeOf(series, 'href'), pageUrl);
}

/** Whether the page is a series page (its series box, or its CreativeWorkSeries type), not an episode post or another page. */
export function isSeriesPage(html: string): boolean {
  const type = SINGULAR_TYPE.exec(html)?.[1];
  return type === 'CreativeWorkSeries' || (type === undefined && SERIES_BOX.test(html));
}

const LOGO_BLOCK = /\bclass\s*=\s*["']?(?:[^"'>]*\s)?logos(?![\w-])/i;
/** How far after the logo block's opening its home link is looked for. */
const LOGO_REACH = 1_000;

/**
 * The origins the page names as its own: its canonical link's and its home link's (the theme's
 * logo), where they are absolute. A moved site's pages may still name its old domain there.
 */
export function readOwnOrigins(html: string): string[] {
  const own = new Set<string>();
  const logo = LOGO_BLOCK.exec(html);
  const home = logo === null ? undefined : html.slice(logo.index, logo.index + LOGO_REACH).match(/<a\s[^>]*>/i)?.[0];
  for (const href of [canonicalHref(html), home && attributeOf(home, 'href')]) {
    if (href === undefined || !/^https?:\/\//i.test(href.trim())) continue;
    const url = resolveHttpUrl(href, 'http://localhost/');
    if (url !== null) own.add(url.origin);
  }
  return [...own];
}

import type { Cheerio, CheerioAPI } from 'cheerio/slim';
import type { AnyNode, Element } from 'domhandler';
import type { Pagination } from '../contract/schemas.js';
import { resolveHttpUrl } from './url.js';
import { allMatches, elementText, firstMatches, type Matcher } from './walk.js';

/** The page number a URL asks for: a `/page/N/` segment or `?page=N` / `?paged=N`; null when it names none. */
function pageNumberOf(url: URL): number | null {
  const fromPath = /\/page\/(\d+)(?:\/|$)/.exec(url.pathname)?.[1];
  const raw = fromPath ?? url.searchParams.get('page') ?? url.searchParams.get('paged') ?? '';
  const page = /^\d+$/.test(raw) ? Number(raw) : NaN;
  return page >= 1 ? page : null;
}

/** The page number of the page being parsed; 1 when its URL names none. */
export function currentPageOf(pageUrl: string): number {
  return pageNumberOf(new URL(pageUrl)) ?? 1;
}

const PAGINATION_WIDGETS = {
  numbered: (el, classes) => el.name === 'div' && classes.includes('pagination'),
  hpage: (el, classes) => el.name === 'div' && classes.includes('hpage'),
} satisfies Record<string, Matcher>;

const HPAGE_LINKS = {
  prev: (el, classes) => el.name === 'a' && classes.includes('l'),
  next: (el, classes) => el.name === 'a' && classes.includes('r'),
} satisfies Record<string, Matcher>;

const NUMBERED_PARTS = {
  current: (el, classes) => el.name === 'span' && classes.includes('current'),
  prev: (el, classes) => el.name === 'a' && classes.includes('prev'),
  next: (el, classes) => el.name === 'a' && classes.includes('next'),
} satisfies Record<string, Matcher>;

const isPageLink: Matcher = (el, classes) => el.name === 'a' && !classes.includes('prev') && !classes.includes('next');

/**
 * Pagination of the listing inside `scope`: WordPress `div.pagination` (numbered) or the theme's
 * `div.hpage` (prev/next only). Without either widget the page is the only, or last, one.
 */
export function parsePagination($: CheerioAPI, scope: Cheerio<AnyNode>, pageUrl: string): Pagination {
  // Both widgets in one walk of the scope, and each widget's links in one walk of it.
  const node = scope[0];
  const widgets = node !== undefined && 'children' in node ? firstMatches(node, PAGINATION_WIDGETS) : {};
  if (widgets.numbered !== undefined) return parseNumbered($, widgets.numbered, pageUrl);
  const currentPage = currentPageOf(pageUrl);
  if (widgets.hpage === undefined) return build(currentPage, previous(currentPage), null, null);
  const links = firstMatches(widgets.hpage, HPAGE_LINKS);
  return build(currentPage, linkedPage(links.prev, pageUrl, currentPage - 1, 1), linkedPage(links.next, pageUrl, currentPage + 1), null);
}

function parseNumbered($: CheerioAPI, widget: Element, pageUrl: string): Pagination {
  const parts = firstMatches(widget, NUMBERED_PARTS);
  const current = Number(elementText($, parts.current));
  const currentPage = Number.isInteger(current) && current >= 1 ? current : currentPageOf(pageUrl);
  const prevPage = linkedPage(parts.prev, pageUrl, currentPage - 1, 1);
  const nextPage = linkedPage(parts.next, pageUrl, currentPage + 1);
  // paginate_links always prints the last page number (end_size 1), so the largest one is the total.
  let totalPages = currentPage;
  for (const link of allMatches(widget, isPageLink)) {
    const text = elementText($, link);
    const page = /^\d+$/.test(text) ? Number(text) : linkedPage(link, pageUrl, 0, 1);
    if (page !== null && page > totalPages) totalPages = page;
  }
  return build(currentPage, prevPage, nextPage, totalPages);
}

/**
 * The page a prev/next link points to; null when the link is absent. Links to the first page
 * carry no number (`/ongoing/`, `/`), so a readable link without one means `numberless`;
 * an unreadable href falls back to `fallback` (the neighbouring page).
 */
function linkedPage(link: Element | undefined, pageUrl: string, fallback: number, numberless: number = fallback): number | null {
  if (link === undefined) return null;
  // hpage links are relative query strings (`?page=3&order=popular`): resolved against this
  // page's URL, never the site root.
  const target = resolveHttpUrl(link.attribs['href'], pageUrl);
  if (target === null) return fallback >= 1 ? fallback : null;
  return pageNumberOf(target) ?? numberless;
}

function previous(currentPage: number): number | null {
  return currentPage > 1 ? currentPage - 1 : null;
}

// No next link means this is the last page, so the total is known even where the widget
// does not print it.
function build(currentPage: number, prevPage: number | null, nextPage: number | null, totalPages: number | null): Pagination {
  return {
    currentPage,
    hasPrevPage: prevPage !== null,
    prevPage,
    hasNextPage: nextPage !== null,
    nextPage,
    totalPages: nextPage === null ? Math.max(totalPages ?? currentPage, currentPage) : totalPages,
  };
}

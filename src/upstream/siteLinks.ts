import { readOwnOrigins } from '../parsers/sitePaths.js';
import type { UpstreamPage } from './pageFetch.js';

// One origin per answer: every link into the site names the origin the page was read from. A
// site's links may name another of its origins: another configured or adopted origin (a mirror,
// the domain before a move), or the domain the page calls its own (its canonical and home links),
// which a moved site or a mirror keeps printing. Other sites' URLs (video hosts, image CDNs such
// as i0.wp.com/anichin.cafe/…) name no origin of the site and stay as they are.

/** An origin as it starts a link: followed by a path, a query, a fragment or the attribute's end, never by more of a host name or a port. */
function originPattern(origin: string): RegExp {
  return new RegExp(`${origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[/?#"'\\s<>]|$)`, 'g');
}

const patterns = new Map<string, RegExp>();
/** Origins seen in pages are few (the configured ones, the site's own domains): their patterns are built once. */
const MAX_PATTERNS = 64;

function patternOf(origin: string): RegExp {
  let pattern = patterns.get(origin);
  if (pattern === undefined) {
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    pattern = originPattern(origin);
    patterns.set(origin, pattern);
  }
  return pattern;
}

/**
 * `html` with its links on the site's other origins (`siteOrigins`, and the page's own domain) rewritten to `servedBy`.
 * @internal exported for the tests: its unit test gives it texts, where pageText takes a page's bytes.
 */
export function linksOnServingOrigin(html: string, servedBy: string, siteOrigins: readonly string[]): string {
  const others = new Set([...siteOrigins, ...readOwnOrigins(html)]);
  others.delete(servedBy);
  let result = html;
  for (const other of others) {
    // Speed only: most pages name no other origin, and a scan for a plain string is the cheapest.
    // WordPress prints its address as configured, lower-case like a URL's origin.
    if (!result.includes(other)) continue;
    result = result.replace(patternOf(other), servedBy);
  }
  return result;
}

/**
 * A fetched page's text: its bytes decoded as UTF-8 (the theme's charset; a byte-order mark is
 * dropped), with every link into the site on the origin that served it. A parse thread reads the
 * page this way, and so does the main thread where it reads a page itself (path learning, origin checks).
 */
export function pageText(page: Pick<UpstreamPage, 'body' | 'servedBy' | 'siteOrigins'>): string {
  return linksOnServingOrigin(utf8.decode(page.body), page.servedBy, page.siteOrigins);
}

const utf8 = new TextDecoder();

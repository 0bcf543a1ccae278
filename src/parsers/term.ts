import type { Cheerio } from 'cheerio/slim';
import type { AnyNode } from 'domhandler';
import type { Term } from '../contract/schemas.js';
import { within } from './scope.js';
import { cleanText } from './text.js';
import { decodedPathSegment } from './url.js';

/** The path segment before a term's slug: `/genres/{slug}/`, `/studio/{slug}/`, … */
export type Taxonomy = 'genres' | 'studio' | 'network' | 'country' | 'season';

// Some installs print "Genre: Action" where others print "Action" (zhadevv strips the prefix).
const HEADING_PREFIX = /^(?:genres?|studios?|networks?|country|countries|seasons?)\s*:\s*/i;

/**
 * The term a taxonomy page lists: its name from the page heading, its slug and URL from the page's
 * own address (page `N` dropped). Null when either is missing: a page of another kind (a redirect
 * to the home page, a redesign) has no such heading or address.
 */
export function termOfPage(scope: Cheerio<AnyNode>, headingSelector: string, pageUrl: string, taxonomy: Taxonomy): Term | null {
  const name = cleanText(within(scope, headingSelector).first().text()).replace(HEADING_PREFIX, '');
  const url = new URL(pageUrl);
  const segments = url.pathname.split('/').filter(Boolean);
  const at = segments.indexOf(taxonomy);
  const slug = at < 0 ? undefined : segments[at + 1];
  if (!name || slug === undefined) return null;
  return { name, slug: decodedPathSegment(slug), url: `${url.origin}/${segments.slice(0, at + 2).join('/')}/` };
}

import { decodeHTMLAttribute } from 'entities';
import { absoluteUrl } from './url.js';

// Only the head is searched: a canonical link is a head element, and the body may be most of the page.
const LINK_TAG = /<link\b[^>]*>/gi;
const CANONICAL_REL = /\brel\s*=\s*(?:"\s*canonical\s*"|'\s*canonical\s*'|canonical(?=[\s/>]))/i;
const HREF = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/** The `href` of the page's `link[rel=canonical]`, as written (entities decoded); undefined when it has none. */
export function canonicalHref(html: string): string | undefined {
  const headEnd = html.search(/<\/head\s*>|<body[\s>]/i);
  if (headEnd < 0) return undefined;
  for (const [tag] of html.slice(0, headEnd).matchAll(LINK_TAG)) {
    if (!CANONICAL_REL.test(tag)) continue;
    const href = HREF.exec(tag);
    const value = href?.[1] ?? href?.[2] ?? href?.[3];
    return value === undefined ? undefined : decodeHTMLAttribute(value);
  }
  return undefined;
}

/**
 * Where the page says it lives: its `link[rel=canonical]`, resolved against the page URL (the later
 * snapshot writes it relative); the page URL when it has none.
 */
export function canonicalUrl(html: string, pageUrl: string): string {
  const href = canonicalHref(html);
  return (href === undefined ? null : absoluteUrl(href, pageUrl)) ?? pageUrl;
}

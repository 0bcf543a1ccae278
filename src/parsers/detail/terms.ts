import type { CheerioAPI } from 'cheerio/slim';
import type { Element } from 'domhandler';
import type { Term } from '../../contract/schemas.js';
import { linkTarget } from '../url.js';
import { elementText } from '../walk.js';

/** A taxonomy link (`a[rel=tag][href=/genres/action/]` "Action") as a term; null without a name or a usable href. */
function termOf($: CheerioAPI, link: Element, pageUrl: string): Term | null {
  const name = elementText($, link);
  const target = linkTarget(link.attribs['href'], pageUrl);
  return name && target !== null ? { name, slug: target.slug, url: target.url } : null;
}

/** The terms of `links`, in order, once each (by slug). */
export function termsOf($: CheerioAPI, links: readonly Element[], pageUrl: string): Term[] {
  const terms = new Map<string, Term>();
  for (const link of links) {
    const term = termOf($, link, pageUrl);
    if (term !== null && !terms.has(term.slug)) terms.set(term.slug, term);
  }
  return [...terms.values()];
}

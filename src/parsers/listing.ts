import type { Cheerio, CheerioAPI } from 'cheerio/slim';
import type { AnyNode, Element } from 'domhandler';
import { LayoutChangedError, PagePastEndError } from './errors.js';
import { currentPageOf } from './pagination.js';
import { allWithin, within } from './scope.js';
import type { Matcher } from './walk.js';

const isCard: Matcher = (el, classes) => el.name === 'article' && classes.includes('bs');

/** The cards under `container` (ads and sidebar excluded) that `parse` can read; unreadable ones are skipped. */
export function cardsIn<T>(
  $: CheerioAPI,
  container: Cheerio<AnyNode>,
  pageUrl: string,
  parse: ($: CheerioAPI, el: Element, pageUrl: string) => T | null,
): T[] {
  const cards: T[] = [];
  for (const el of allWithin(container, isCard)) {
    const card = parse($, el, pageUrl);
    if (card !== null) cards.push(card);
  }
  return cards;
}

/**
 * Why a listing yielded no cards. A missing container, or card markup that no longer parses,
 * is a changed layout; an empty container past page 1 is the end of the listing. Null means
 * an empty container on page 1, which only the caller can judge (no search hits, or a layout change).
 */
export function emptyListingError(
  pageKind: string,
  listName: string,
  container: Cheerio<Element> | null,
  pageUrl: string,
  alsoMissing: readonly string[] = [],
): LayoutChangedError | PagePastEndError | null {
  if (container === null || container.length === 0) return new LayoutChangedError(pageKind, [listName, ...alsoMissing]);
  if (within(container, 'article, .bs, .bsx').length > 0) return new LayoutChangedError(pageKind, [`${listName}.cards`, ...alsoMissing]);
  const page = currentPageOf(pageUrl);
  return page > 1 ? new PagePastEndError(pageKind, page) : null;
}

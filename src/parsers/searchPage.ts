import type { SeriesCard } from '../contract/schemas.js';
import { parseSeriesCard } from './cards/seriesCard.js';
import { cardsIn, emptyListingError } from './listing.js';
import { parsePagination } from './pagination.js';
import { firstWithin, listingMarkup, loadMainColumn } from './scope.js';
import type { ParsedPage } from './types.js';
import { selectionOf } from './walk.js';

/** Search `/?s=q` or `/page/N/?s=q`: series cards of the main column's `.listupd`. */
export function parseSearchPage(html: string, pageUrl: string): ParsedPage<{ results: SeriesCard[] }> {
  const { $, main } = loadMainColumn(listingMarkup(html));
  const list = selectionOf(
    $,
    firstWithin(main, (_el, classes) => classes.includes('listupd')),
  );
  const results = cardsIn($, list, pageUrl, parseSeriesCard);
  if (results.length === 0) {
    // A search without hits shows only a not-found message in `.listupd`: a valid, empty answer.
    const error = emptyListingError('search', 'results', list, pageUrl);
    if (error !== null) throw error;
  }
  return { data: { results }, pagination: parsePagination($, main, pageUrl), missing: [] };
}

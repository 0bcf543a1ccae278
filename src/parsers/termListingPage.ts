import type { TermListingData } from '../contract/browse.js';
import { LayoutChangedError } from './errors.js';
import { listingMarkup, loadMainColumn } from './scope.js';
import { seriesList } from './seriesListPage.js';
import { termOfPage, type Taxonomy } from './term.js';
import type { ParsedPage } from './types.js';

/**
 * `/genres/{slug}/`, `/studio/{slug}/`, `/network/{slug}/`, `/country/{slug}/` (+ `page/N/`): the
 * listing layout of search and ongoing, plus the term named by the page heading.
 */
export function parseTermListingPage(html: string, pageUrl: string, taxonomy: Taxonomy): ParsedPage<TermListingData> {
  const column = loadMainColumn(listingMarkup(html));
  // The cards first: an empty page past the end is a 404 whatever its heading says. An existing
  // term without series still has its first page (WordPress answers 404 only for unknown terms).
  const { series, pagination } = seriesList(column, taxonomy, pageUrl, true);
  const term = termOfPage(column.main, '.releases h1', pageUrl, taxonomy);
  if (term === null) throw new LayoutChangedError(taxonomy, ['term']);
  return { data: { term, series }, pagination, missing: [] };
}

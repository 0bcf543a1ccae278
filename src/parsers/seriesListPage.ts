import type { NewMovieData, Pagination, PopularSeriesData, SeriesCard } from '../contract/schemas.js';
import { LayoutChangedError } from './errors.js';
import { parseSeriesCard } from './cards/seriesCard.js';
import { cardsIn, emptyListingError } from './listing.js';
import { parsePagination } from './pagination.js';
import { firstWithin, listingMarkup, loadMainColumn, type LoadedColumn } from './scope.js';
import { NEW_MOVIE_WIDGET, parseWidgetOfPage, RANKING_WIDGET } from './sidebar.js';
import type { ParsedPage } from './types.js';
import { selectionOf } from './walk.js';

// One page kind for every series listing: `/ongoing/` (WordPress pagination) and the filter
// list `/seri/?order=popular`, `/seri/?type=movie&order=update` (theme `hpage`, relative links).

export interface ListingOptions {
  /** Names the page in errors; "seriesList" by default. */
  pageKind?: string;
  /** A first page without cards is a valid, empty answer (a filter or letter nothing matches), not a layout change. */
  emptyIsValid?: boolean;
}

/** `/ongoing/`, `/completed/`, `/az-lists/` (+ `page/N/`) or any `/seri/?…` filter list: the series cards. */
export function parseSeriesListPage(html: string, pageUrl: string, options: ListingOptions = {}): ParsedPage<{ series: SeriesCard[] }> {
  const { series, pagination } = seriesList(
    loadMainColumn(listingMarkup(html)),
    options.pageKind ?? 'seriesList',
    pageUrl,
    options.emptyIsValid,
  );
  return { data: { series }, pagination, missing: [] };
}

/** The list ordered by popularity, plus the sidebar's weekly/monthly/all-time ranking of the same page. */
export function parsePopularSeriesPage(html: string, pageUrl: string): ParsedPage<PopularSeriesData> {
  const { series, pagination } = seriesList(loadMainColumn(listingMarkup(html)), 'popularSeries', pageUrl);
  const ranking = parseWidgetOfPage(html, RANKING_WIDGET, pageUrl);
  return { data: { series, ranking: ranking.data }, pagination, missing: ranking.missing };
}

/** The list of movies, newest first, plus the sidebar's "NEW MOVIE" widget of the same page. */
export function parseNewMoviePage(html: string, pageUrl: string): ParsedPage<NewMovieData> {
  const { series, pagination } = seriesList(loadMainColumn(listingMarkup(html)), 'newMovie', pageUrl);
  const latest = parseWidgetOfPage(html, NEW_MOVIE_WIDGET, pageUrl);
  return { data: { movies: series, latest: latest.data }, pagination, missing: latest.missing };
}

/** The series cards of the main column's listing and its pagination; every page of the listing layout reads them here. */
export function seriesList(
  { $, main }: LoadedColumn,
  pageKind: string,
  pageUrl: string,
  emptyIsValid = false,
): { series: SeriesCard[]; pagination: Pagination } {
  // The filter list wraps the cards in `div.mrgn` on some installs; `.listupd` is the stable part.
  const list = selectionOf(
    $,
    firstWithin(main, (_el, classes) => classes.includes('listupd')),
  );
  const series = cardsIn($, list, pageUrl, parseSeriesCard);
  if (series.length === 0) {
    const error = emptyListingError(pageKind, 'series', list, pageUrl);
    if (error !== null) throw error;
    if (!emptyIsValid) throw new LayoutChangedError(pageKind, ['series.cards']);
  }
  return { series, pagination: parsePagination($, main, pageUrl) };
}

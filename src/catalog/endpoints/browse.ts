import { z } from 'zod';
import {
  AzListData,
  AzListQuery,
  CompletedSeriesData,
  ScheduleData,
  SeasonData,
  SeriesFilterData,
  SeriesFilterQuery,
  TermListingData,
} from '../../contract/browse.js';
import { NoQuery, PageQuery, slugParam, upstreamSlug } from '../../contract/params.js';
import { parseSchedulePage } from '../../parsers/schedulePage.js';
import { parseSeasonPage } from '../../parsers/seasonPage.js';
import { parseSeriesListPage } from '../../parsers/seriesListPage.js';
import type { Taxonomy } from '../../parsers/term.js';
import { parseTermListingPage } from '../../parsers/termListingPage.js';
import { endpoint, HOUR, MINUTE } from './types.js';

/** `/base/` or `/base/page/N/`: WordPress's paged archive URLs. */
const paged = (base: string, page: number) => (page > 1 ? `${base}page/${page}/` : base);

/** A taxonomy archive (`/genres/{slug}/`, `/studio/{slug}/`, …): the listing layout plus its term. */
function termListing(path: `/catalog/${string}/{slug}`, taxonomy: Exclude<Taxonomy, 'season'>, what: string) {
  return endpoint({
    path,
    summary: `Series of one ${what}`,
    description: `The upstream's /${taxonomy}/{slug}/ page: its series cards (10 per page on genres) and the ${what} named by its heading. An unknown ${what} is 404.`,
    params: z.object({ slug: slugParam('slug', what) }),
    query: PageQuery,
    data: TermListingData,
    paginated: true,
    ttlSeconds: 10 * MINUTE,
    upstreamPath: ({ slug, page }) => paged(`/${taxonomy}/${upstreamSlug(slug)}/`, page),
    parse: (html, pageUrl) => parseTermListingPage(html, pageUrl, taxonomy),
  });
}

/** The site's query string for its quick filter: PHP arrays as `genre[]=…`, one per slug. */
function filterQuery(input: z.output<typeof SeriesFilterQuery>): string {
  const query = new URLSearchParams();
  for (const name of ['status', 'type', 'order'] as const) {
    const value = input[name];
    if (value !== null) query.append(name, value);
  }
  for (const name of ['genre', 'season', 'studio'] as const) for (const slug of input[name]) query.append(`${name}[]`, slug);
  query.append('page', String(input.page));
  return query.toString();
}

/** Every other listing of the site: completed, taxonomy and season pages, the schedule, A–Z and the filter. */
export const browseEndpoints = [
  endpoint({
    path: '/catalog/completed-series',
    summary: 'Completed series',
    description: 'The upstream completed list, 20 series per page.',
    query: PageQuery,
    data: CompletedSeriesData,
    paginated: true,
    ttlSeconds: 10 * MINUTE,
    upstreamPath: ({ page }) => paged('/completed/', page),
    parse: (html, pageUrl) => parseSeriesListPage(html, pageUrl, { pageKind: 'completed' }),
  }),
  termListing('/catalog/genres/{slug}', 'genres', 'genre'),
  termListing('/catalog/studios/{slug}', 'studio', 'studio'),
  termListing('/catalog/networks/{slug}', 'network', 'network'),
  termListing('/catalog/countries/{slug}', 'country', 'country'),
  endpoint({
    path: '/catalog/seasons/{slug}',
    summary: 'Series of one season',
    description:
      "The upstream's /season/{slug}/ page (a year such as 2025, or summer-2022): every series of the season on one page, in the season page's own card layout. An unknown season is 404.",
    params: z.object({ slug: slugParam('slug', 'season') }),
    query: NoQuery,
    data: SeasonData,
    paginated: false,
    ttlSeconds: HOUR,
    upstreamPath: ({ slug }) => `/season/${upstreamSlug(slug)}/`,
    parse: (html, pageUrl) => parseSeasonPage(html, pageUrl),
  }),
  endpoint({
    path: '/catalog/schedule',
    summary: 'Weekly release schedule, Monday first',
    description:
      'The upstream /schedule/ page: per weekday the series that air, with the next episode (null when the site shows "??") and its release time from the countdown.',
    query: NoQuery,
    data: ScheduleData,
    paginated: false,
    ttlSeconds: 30 * MINUTE,
    upstreamPath: () => '/schedule/',
    parse: (html, pageUrl) => parseSchedulePage(html, pageUrl),
  }),
  endpoint({
    path: '/catalog/az-list',
    summary: 'Series in alphabetical order, by first letter',
    description:
      'The upstream A–Z list, 10 series per page: all series, or those of one letter (A–Z, 0-9, or # for titles that start with a sign). A letter without series is a success with `series: []`.',
    query: AzListQuery,
    data: AzListData,
    paginated: true,
    ttlSeconds: HOUR,
    // The site calls the sign group `.`; we call it `#`, as its own footer links read.
    upstreamPath: ({ letter, page }) =>
      paged('/az-lists/', page) + (letter === null ? '' : `?${new URLSearchParams({ show: letter === '#' ? '.' : letter }).toString()}`),
    parse: (html, pageUrl, { letter }) => {
      const parsed = parseSeriesListPage(html, pageUrl, { pageKind: 'azList', emptyIsValid: true });
      return { ...parsed, data: { letter, series: parsed.data.series } };
    },
  }),
  endpoint({
    path: '/catalog/series',
    summary: "Series by the site's own filter: status, type, order, genres, seasons, studios",
    description:
      "The upstream series list (the site's list path, where its quick-filter form submits) with the values of that form, 20 per page. Lists are comma-separated slugs, at most 10 each. A filter nothing matches is a success with `series: []`; `filters` echoes what was applied.",
    query: SeriesFilterQuery,
    data: SeriesFilterData,
    paginated: true,
    ttlSeconds: 10 * MINUTE,
    sitePath: 'list',
    upstreamPath: (input, { listPath }) => `${listPath}?${filterQuery(input)}`,
    parse: (html, pageUrl, { status, type, order, genre, season, studio }) => {
      const parsed = parseSeriesListPage(html, pageUrl, { pageKind: 'seriesFilter', emptyIsValid: true });
      return { ...parsed, data: { filters: { status, type, order, genre, season, studio }, series: parsed.data.series } };
    },
  }),
] as const;

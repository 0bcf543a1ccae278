import type { z } from 'zod';
import type { CacheTtlVariable } from '../config/schema.js';
import { parseGenreList } from '../parsers/genreList.js';
import { parseHomePage } from '../parsers/homePage.js';
import { parseSearchPage } from '../parsers/searchPage.js';
import { parseNewMoviePage, parsePopularSeriesPage, parseSeriesListPage } from '../parsers/seriesListPage.js';
import type { ParsedPage } from '../parsers/types.js';
import {
  GenresData,
  HomeData,
  NewMovieData,
  NoQuery,
  OngoingSeriesData,
  PageQuery,
  PopularSeriesData,
  SearchData,
  SearchQuery,
} from './schemas.js';

/** Facts about the upstream install that page paths depend on. */
export interface UpstreamSite {
  /** Path of the series list and series pages, e.g. "/seri/" or "/anime/". */
  seriesPath: string;
}

export interface Endpoint<Query extends z.ZodType = z.ZodType, Data extends z.ZodType = z.ZodType> {
  path: `/catalog/${string}`;
  summary: string;
  description: string;
  query: Query;
  data: Data;
  paginated: boolean;
  /** The configuration variable holding how long an answer stays fresh, in seconds. */
  ttlVariable: CacheTtlVariable;
  upstreamPath(query: z.output<Query>, site: UpstreamSite): string;
  parse(html: string, pageUrl: string, query: z.output<Query>): ParsedPage<z.output<Data>>;
}

// Ties each entry's query type to its functions while the table stays one list.
function endpoint<Query extends z.ZodType, Data extends z.ZodType>(
  definition: Endpoint<Query, Data>,
): Endpoint<Query, Data> {
  return definition;
}

const pagedRoot = (page: number) => (page > 1 ? `/page/${page}/` : '/');

/** The six endpoints: everything the routes, the validation and the API reference read. */
export const endpoints = [
  endpoint({
    path: '/catalog/home',
    summary: 'Home page: slider, popular today, latest releases and recommendations',
    description:
      'The upstream home page. Page 2 and later carry further latest releases; the slider, popular today and recommendations repeat on every page.',
    query: PageQuery,
    data: HomeData,
    paginated: true,
    ttlVariable: 'CACHE_TTL_HOME_S',
    upstreamPath: ({ page }) => pagedRoot(page),
    parse: (html, pageUrl) => parseHomePage(html, pageUrl),
  }),
  endpoint({
    path: '/catalog/search',
    summary: 'Search series by title',
    description: 'Upstream search results, 10 per page. A search without hits is a success with `results: []`.',
    query: SearchQuery,
    data: SearchData,
    paginated: true,
    ttlVariable: 'CACHE_TTL_SEARCH_S',
    upstreamPath: ({ q, page }) => `${pagedRoot(page)}?${new URLSearchParams({ s: q })}`,
    parse: (html, pageUrl, { q }) => {
      const parsed = parseSearchPage(html, pageUrl);
      return { ...parsed, data: { query: q, results: parsed.data.results } };
    },
  }),
  endpoint({
    path: '/catalog/genres',
    summary: 'All genres',
    description: "The genre list of the upstream's sidebar (its quick-filter checkboxes when the widget is missing).",
    query: NoQuery,
    data: GenresData,
    paginated: false,
    ttlVariable: 'CACHE_TTL_GENRES_S',
    upstreamPath: () => '/',
    parse: (html, pageUrl) => parseGenreList(html, pageUrl),
  }),
  endpoint({
    path: '/catalog/ongoing-series',
    summary: 'Ongoing series, most recently updated first',
    description: 'The upstream ongoing list, 20 series per page.',
    query: PageQuery,
    data: OngoingSeriesData,
    paginated: true,
    ttlVariable: 'CACHE_TTL_ONGOING_S',
    upstreamPath: ({ page }) => (page > 1 ? `/ongoing/page/${page}/` : '/ongoing/'),
    parse: (html, pageUrl) => parseSeriesListPage(html, pageUrl),
  }),
  endpoint({
    path: '/catalog/popular-series',
    summary: 'Series by popularity, plus the weekly / monthly / all-time ranking',
    description:
      "The upstream series list ordered by popularity (20 per page), and the ranking of the sidebar's Popular Series widget.",
    query: PageQuery,
    data: PopularSeriesData,
    paginated: true,
    ttlVariable: 'CACHE_TTL_POPULAR_S',
    upstreamPath: ({ page }, { seriesPath }) => `${seriesPath}?order=popular&page=${page}`,
    parse: (html, pageUrl) => parsePopularSeriesPage(html, pageUrl),
  }),
  endpoint({
    path: '/catalog/new-movie',
    summary: 'Movies, newest first, plus the sidebar "NEW MOVIE" list',
    description:
      'The upstream series list filtered to movies and ordered by update (20 per page), and the sidebar NEW MOVIE entries with their release dates.',
    query: PageQuery,
    data: NewMovieData,
    paginated: true,
    ttlVariable: 'CACHE_TTL_NEW_MOVIE_S',
    upstreamPath: ({ page }, { seriesPath }) => `${seriesPath}?type=movie&order=update&page=${page}`,
    parse: (html, pageUrl) => parseNewMoviePage(html, pageUrl),
  }),
] as const;

export type AnyEndpoint = (typeof endpoints)[number];

export const ENDPOINT_PATHS: readonly string[] = endpoints.map((entry) => entry.path);

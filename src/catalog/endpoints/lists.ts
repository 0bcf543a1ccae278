import { NoQuery, PageQuery, SearchQuery } from '../../contract/params.js';
import { GenresData, HomeData, NewMovieData, OngoingSeriesData, PopularSeriesData, SearchData } from '../../contract/schemas.js';
import { parseGenreList } from '../../parsers/genreList.js';
import { parseHomePage } from '../../parsers/homePage.js';
import { parseSearchPage } from '../../parsers/searchPage.js';
import { parseNewMoviePage, parsePopularSeriesPage, parseSeriesListPage } from '../../parsers/seriesListPage.js';
import { endpoint, HOUR, MINUTE } from './types.js';

const pagedRoot = (page: number) => (page > 1 ? `/page/${page}/` : '/');

/** The first six: the home page and the lists the Report Center names one by one. */
export const listEndpoints = [
  endpoint({
    path: '/catalog/home',
    summary: 'Home page: slider, popular today, latest releases and recommendations',
    description:
      'The upstream home page. Page 2 and later carry further latest releases; the slider, popular today and recommendations repeat on every page.',
    query: PageQuery,
    data: HomeData,
    paginated: true,
    ttlSeconds: 5 * MINUTE,
    upstreamPath: ({ page }) => pagedRoot(page),
    parse: (html, pageUrl) => parseHomePage(html, pageUrl),
  }),
  endpoint({
    path: '/catalog/search',
    summary: 'Search series by title',
    description:
      "The site's own search (main titles only), 10 per page; with `source=catalog`, this service's copy of the whole catalog instead: every title and alternative title (Chinese characters, pinyin, English, Indonesian), forgiving case, accents, width, word prefixes and one typo per word, best match first, 20 per page, `meta.catalogComplete` false while the crawler has not read every series yet, and 503 CATALOG_NOT_READY while it is turned off or has read nothing. A search without hits is a success with `results: []`.",
    query: SearchQuery,
    data: SearchData,
    paginated: true,
    ttlSeconds: 10 * MINUTE,
    upstreamPath: ({ q, page }) => `${pagedRoot(page)}?${new URLSearchParams({ s: q }).toString()}`,
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
    ttlSeconds: 12 * HOUR,
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
    ttlSeconds: 10 * MINUTE,
    upstreamPath: ({ page }) => (page > 1 ? `/ongoing/page/${page}/` : '/ongoing/'),
    parse: (html, pageUrl) => parseSeriesListPage(html, pageUrl),
  }),
  endpoint({
    path: '/catalog/popular-series',
    summary: 'Series by popularity, plus the weekly / monthly / all-time ranking',
    description:
      "The upstream series list (the site's list path, learned from its quick-filter form) ordered by popularity (20 per page), and the ranking of the sidebar's Popular Series widget.",
    query: PageQuery,
    data: PopularSeriesData,
    paginated: true,
    ttlSeconds: 30 * MINUTE,
    sitePath: 'list',
    upstreamPath: ({ page }, { listPath }) => `${listPath}?order=popular&page=${page}`,
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
    ttlSeconds: 30 * MINUTE,
    sitePath: 'list',
    upstreamPath: ({ page }, { listPath }) => `${listPath}?type=movie&order=update&page=${page}`,
    parse: (html, pageUrl) => parseNewMoviePage(html, pageUrl),
  }),
] as const;

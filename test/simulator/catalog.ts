import { EMPTY_GENRE_SLUG, GENRES, lastModified, SEASONS, type Genre, type Series, type Term } from './dataset.js';
import { DEFAULT_CATALOG, type LiveCatalog } from './liveCatalog.js';
import { termsOf } from './taxonomies.js';

/**
 * What each simulated page shows. Page builders render these results and tests compute expected
 * values from them, so both always agree on the same dataset. Each takes the catalog a simulator
 * runs on; without one, the default dataset.
 */

export const SLIDER_SIZE = 14;
const POPULAR_TODAY_SIZE = 5;
const HOME_LATEST_PER_PAGE = 20;
const RECOMMENDATION_TAB_COUNT = 5;
const RECOMMENDATION_TAB_SIZE = 10;
const SEARCH_PER_PAGE = 10;
/** `/ongoing/` and the series list `/seri/?…` both show 20 cards a page. */
export const LIST_PER_PAGE = 20;
const RANKING_SIZE = 5;
const NEW_MOVIE_SIZE = 5;
const ONGOING_WIDGET_SIZE = 30;

export interface Page<T> {
  readonly items: readonly T[];
  readonly page: number;
  /** 0 when nothing matches. */
  readonly totalPages: number;
  readonly totalItems: number;
}

export interface EpisodeItem {
  readonly series: Series;
  /** null for movies. */
  readonly episode: number | null;
  /** Site-relative episode URL, e.g. `/slug-episode-07-subtitle-indonesia/`. */
  readonly path: string;
  /** The episode post's title, e.g. "Title Episode 07 Subtitle Indonesia". */
  readonly title: string;
  readonly publishedAt: string;
}

export type RankingRange = 'weekly' | 'monthly' | 'alltime';

export interface RecommendationTab {
  readonly genre: Genre;
  readonly items: readonly Series[];
}

export interface NewMovieEntry {
  readonly series: Series;
  /** As the widget prints it: "Apr 4, 2026", "Dec 02, 2024" or "TBA". */
  readonly dateText: string;
}

export interface SeasonCount {
  readonly season: Term;
  readonly count: number;
}

/** Query of the series list page (`/seri/?status=&type=&order=`); values as the quick filter sends them. */
export interface ListFilter {
  readonly status?: string;
  readonly type?: string;
  readonly sub?: string;
  readonly order?: string;
  /** `genre[]`, `season[]`, `studio[]` slugs: a series matches when it has any of each list's terms. */
  readonly genre?: readonly string[];
  readonly season?: readonly string[];
  readonly studio?: readonly string[];
}

const RECOMMENDATION_GENRES = ['crossdressing', 'cultivation', 'martial-arts', 'romance', 'fantasy'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEK_MS = 7 * 86_400_000;

export function paginate<T>(items: readonly T[], page: number, perPage: number): Page<T> {
  const start = (page - 1) * perPage;
  return { items: items.slice(start, start + perPage), page, totalPages: Math.ceil(items.length / perPage), totalItems: items.length };
}

/** Episode numbers are zero-padded to two digits: 01 … 09, 10, 124. */
export function padEpisode(episode: number): string {
  return String(episode).padStart(2, '0');
}

/** The last episode of a completed series is posted with the `-tamat-` (finale) slug, as on the real site. */
function isFinale(series: Series, episode: number): boolean {
  return series.status === 'Completed' && episode === series.latestEpisode;
}

export function episodePath(series: Series, episode: number | null): string {
  if (episode === null) return `/${series.slug}-subtitle-indonesia/`;
  const finale = isFinale(series, episode) ? '-tamat' : '';
  return `/${series.slug}-episode-${padEpisode(episode)}${finale}-subtitle-indonesia/`;
}

export function episodeTitle(series: Series, episode: number | null): string {
  if (episode === null) return `${series.title} Subtitle Indonesia`;
  const finale = isFinale(series, episode) ? ' Tamat' : '';
  return `${series.title} Episode ${padEpisode(episode)}${finale} Subtitle Indonesia`;
}

function episodeItem(series: Series, episode: number | null, publishedMs: number): EpisodeItem {
  return {
    series,
    episode,
    path: episodePath(series, episode),
    title: episodeTitle(series, episode),
    publishedAt: new Date(publishedMs).toISOString(),
  };
}

/** The latest episode post of a series, or null when nothing has aired. */
function latestEpisodeOf(series: Series): EpisodeItem | null {
  if (series.status === 'Upcoming') return null;
  return episodeItem(series, series.latestEpisode, Date.parse(series.updatedAt));
}

export const byNewest = (a: { id: number }, b: { id: number }): number => b.id - a.id;
export const byUpdate = (a: Series, b: Series): number => lastModified(b).localeCompare(lastModified(a)) || byNewest(a, b);

/** Every episode post, newest first: three recent episodes of ongoing series, the last one of the others. */
function latestFeed(catalog: LiveCatalog): readonly EpisodeItem[] {
  return catalog.derived('latestFeed', () =>
    catalog.series
      .flatMap((series): EpisodeItem[] => {
        const latest = latestEpisodeOf(series);
        if (latest === null) return [];
        const episode = latest.episode;
        if (episode === null || series.status !== 'Ongoing') return [latest];
        const updated = Date.parse(series.updatedAt);
        return [0, 1, 2].filter((back) => episode - back >= 1).map((back) => episodeItem(series, episode - back, updated - back * WEEK_MS));
      })
      .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || byNewest(a.series, b.series)),
  );
}

const TITLE_COLLATOR = new Intl.Collator('en');
/** The titles' A–Z order (one shared collator: the order of `localeCompare(…, 'en')`, without building one per comparison). */
export const byTitle = (a: Series, b: Series): number => TITLE_COLLATOR.compare(a.title, b.title);

export function homeSlider(catalog: LiveCatalog = DEFAULT_CATALOG): Series[] {
  return [
    ...catalog.derived('homeSlider', () =>
      catalog.series
        .filter((series) => series.hot && series.banner !== null)
        .sort((a, b) => b.popularity - a.popularity)
        .slice(0, SLIDER_SIZE),
    ),
  ];
}

/** Home "Popular Today": episode cards of the five series most watched today. */
export function popularToday(catalog: LiveCatalog = DEFAULT_CATALOG): EpisodeItem[] {
  return [
    ...catalog.derived('popularToday', () =>
      catalog.series
        .filter((series) => series.status !== 'Upcoming')
        .sort((a, b) => b.views.today - a.views.today)
        .slice(0, POPULAR_TODAY_SIZE)
        .flatMap((series) => latestEpisodeOf(series) ?? []),
    ),
  ];
}

export function latestReleases(page: number, catalog: LiveCatalog = DEFAULT_CATALOG): Page<EpisodeItem> {
  return paginate(latestFeed(catalog), page, HOME_LATEST_PER_PAGE);
}

export function homeTotalPages(catalog: LiveCatalog = DEFAULT_CATALOG): number {
  return Math.ceil(latestFeed(catalog).length / HOME_LATEST_PER_PAGE);
}

export function recommendations(catalog: LiveCatalog = DEFAULT_CATALOG): RecommendationTab[] {
  const tabs = catalog.derived('recommendations', () =>
    RECOMMENDATION_GENRES.slice(0, RECOMMENDATION_TAB_COUNT).map((slug) => {
      const genre = GENRES.find((candidate) => candidate.slug === slug);
      if (genre === undefined) throw new Error(`unknown recommendation genre ${slug}`);
      const items = catalog.series
        .filter((series) => series.genres.includes(genre))
        .sort((a, b) => b.popularity - a.popularity)
        .slice(0, RECOMMENDATION_TAB_SIZE);
      return { genre, items };
    }),
  );
  return [...tabs];
}

/** WordPress search restricted to series titles: case-insensitive substring, newest post first. */
export function search(query: string, page: number, catalog: LiveCatalog = DEFAULT_CATALOG): Page<Series> {
  const needle = query.trim().toLowerCase();
  return paginate(catalog.series.filter((series) => series.title.toLowerCase().includes(needle)).sort(byNewest), page, SEARCH_PER_PAGE);
}

function ongoingByUpdate(catalog: LiveCatalog): readonly Series[] {
  return catalog.derived('ongoing', () => catalog.series.filter((series) => series.status === 'Ongoing').sort(byUpdate));
}

export function ongoing(page: number, catalog: LiveCatalog = DEFAULT_CATALOG): Page<Series> {
  return paginate(ongoingByUpdate(catalog), page, LIST_PER_PAGE);
}

const LIST_ORDERS: Record<string, (a: Series, b: Series) => number> = {
  title: byTitle,
  titlereverse: (a, b) => byTitle(b, a),
  update: byUpdate,
  latest: byNewest,
  popular: (a, b) => b.popularity - a.popularity,
  rating: (a, b) => (b.rating ?? -1) - (a.rating ?? -1) || byNewest(a, b),
};

/** The filterable series list. Matching is case-insensitive (the theme's own link says `type=Movie`); unknown orders fall back to the default, newest post first. */
export function seriesList(filter: ListFilter, page: number, catalog: LiveCatalog = DEFAULT_CATALOG): Page<Series> {
  const wanted = (value: string | undefined): string => (value ?? '').trim().toLowerCase();
  const status = wanted(filter.status);
  const type = wanted(filter.type);
  const sub = wanted(filter.sub);
  const order = LIST_ORDERS[wanted(filter.order)] ?? byNewest;
  const anyOf = (wantedSlugs: readonly string[] | undefined, slugs: readonly string[]): boolean =>
    (wantedSlugs ?? []).length === 0 || slugs.some((slug) => wantedSlugs?.includes(slug));
  const key = JSON.stringify([
    'seriesList',
    status,
    type,
    sub,
    wanted(filter.order),
    filter.genre ?? [],
    filter.season ?? [],
    filter.studio ?? [],
  ]);
  const matches = catalog.derived(key, () =>
    catalog.series
      .filter(
        (series) =>
          (status === '' || series.status.toLowerCase() === status) &&
          (type === '' || (series.type ?? '').toLowerCase() === type) &&
          (sub === '' || (series.sub ?? '').toLowerCase() === sub) &&
          anyOf(
            filter.genre,
            series.genres.map((genre) => genre.slug),
          ) &&
          anyOf(filter.season, [termsOf(series).season.slug]) &&
          anyOf(filter.studio, [termsOf(series).studio.slug]),
      )
      .sort(order),
  );
  return paginate(matches, page, LIST_PER_PAGE);
}

/** `/seri/?order=popular&page=N` */
export function popular(page: number, catalog: LiveCatalog = DEFAULT_CATALOG): Page<Series> {
  return seriesList({ order: 'popular' }, page, catalog);
}

/** `/seri/?type=movie&order=update&page=N` */
export function movies(page: number, catalog: LiveCatalog = DEFAULT_CATALOG): Page<Series> {
  return seriesList({ type: 'movie', order: 'update' }, page, catalog);
}

/** Sidebar "Popular Series" tab; each range has its own order. */
export function ranking(range: RankingRange, catalog: LiveCatalog = DEFAULT_CATALOG): Series[] {
  const score = (series: Series): number =>
    range === 'weekly' ? series.views.weekly : range === 'monthly' ? series.views.monthly : series.popularity;
  return [...catalog.derived(`ranking:${range}`, () => [...catalog.series].sort((a, b) => score(b) - score(a)).slice(0, RANKING_SIZE))];
}

/** Widget date text: the real widget mixes "Apr 4, 2026" and "Dec 02, 2024"; unannounced movies say "TBA". */
function movieDateText(releaseDate: string | null, slot: number): string {
  if (releaseDate === null) return 'TBA';
  const [year, month, day] = releaseDate.split('-').map(Number);
  const dayText = slot % 2 === 1 ? String(day).padStart(2, '0') : String(day);
  return `${MONTHS[(month ?? 1) - 1]} ${dayText}, ${year}`;
}

/** Sidebar "NEW MOVIE": the five most recently posted movies (by post id, not by update). */
export function newMovies(catalog: LiveCatalog = DEFAULT_CATALOG): NewMovieEntry[] {
  return [
    ...catalog.derived('newMovies', () =>
      catalog.series
        .filter((series) => series.type === 'Movie')
        .sort(byNewest)
        .slice(0, NEW_MOVIE_SIZE)
        .map((series, slot) => ({ series, dateText: movieDateText(series.releaseDate, slot) })),
    ),
  ];
}

/** Sidebar "Genres" widget: every genre that has a series (WordPress hides empty terms). */
export function sidebarGenres(): Genre[] {
  return GENRES.filter((genre) => genre.slug !== EMPTY_GENRE_SLUG);
}

/** Quick filter `genre[]` checkboxes: every genre, one more than the widget. */
export function quickFilterGenres(): Genre[] {
  return [...GENRES];
}

/** Sidebar "Ongoing Series": latest episode of the most recently updated ongoing series. */
export function ongoingSidebar(catalog: LiveCatalog = DEFAULT_CATALOG): EpisodeItem[] {
  return ongoingByUpdate(catalog)
    .slice(0, ONGOING_WIDGET_SIZE)
    .flatMap((series) => latestEpisodeOf(series) ?? []);
}

/** Sidebar season widget (years only, as the real widget shows). */
export function seasonWidget(): SeasonCount[] {
  return SEASONS.filter((season) => /^\d{4}$/.test(season.slug)).map((season, index) => ({
    season,
    count: ((index * 37) % 29) + 1,
  }));
}

import type { Cheerio, CheerioAPI } from 'cheerio/slim';
import type { Element } from 'domhandler';
import type { Genre, GenreTag, LatestMovie, PopularSeriesData, RankedSeries } from '../catalog/schemas.js';
import { blockByHeading } from './scope.js';
import { cleanText, parseRating, parseReleaseDate } from './text.js';
import { absoluteUrl, imageSrc, slugFromUrl } from './url.js';

/** A sidebar widget's items plus the names of the parts that were not on the page. */
export interface WidgetResult<T> {
  data: T;
  missing: string[];
}

export type Ranking = PopularSeriesData['ranking'];

const GENRE_HEADINGS = ['genres', 'genre'];
const RANKING_HEADINGS = ['popular series', 'popular'];
const NEW_MOVIE_HEADINGS = ['new movie', 'new movies'];

// The popular widget renders all three ranges and hides two of them with CSS.
const RANKING_TABS = [
  ['weekly', '.wpop-weekly'],
  ['monthly', '.wpop-monthly'],
  ['allTime', '.wpop-alltime'],
] as const;

/** The "Genres" widget: `ul.genre li a[href=/genres/{slug}/]`. */
export function parseGenreWidget($: CheerioAPI, pageUrl: string): WidgetResult<Genre[]> {
  const section = sidebarWidget($, GENRE_HEADINGS);
  const genres: Genre[] = [];
  for (const link of section?.find('ul.genre li a').toArray() ?? []) {
    const url = absoluteUrl($(link).attr('href'), pageUrl);
    const name = cleanText($(link).text());
    const slug = url === null ? null : genreSlug(url);
    if (url !== null && slug !== null && name) genres.push({ name, slug, url });
  }
  const unique = uniqueBySlug(genres);
  return { data: unique, missing: unique.length > 0 ? [] : ['genreWidget'] };
}

/** Genre checkboxes of the quick-filter form (`input[name="genre[]"]` + `label[for]`), anywhere on the page. */
export function parseQuickFilterGenres($: CheerioAPI, pageUrl: string): WidgetResult<Genre[]> {
  const labels = new Map<string, string>();
  for (const label of $('label[for]').toArray()) {
    labels.set($(label).attr('for') ?? '', cleanText($(label).text()));
  }
  const genres: Genre[] = [];
  for (const input of $('input[name="genre[]"]').toArray()) {
    const slug = cleanText($(input).attr('value'));
    const name = labels.get($(input).attr('id') ?? '') ?? '';
    // The checkbox carries only the slug; its genre page lives at the theme's taxonomy path.
    if (slug && name) genres.push({ name, slug, url: new URL(`/genres/${encodeURIComponent(slug)}/`, pageUrl).href });
  }
  const unique = uniqueBySlug(genres);
  return { data: unique, missing: unique.length > 0 ? [] : ['quickFilterGenres'] };
}

/** The "Popular Series" widget: weekly, monthly and all-time top lists. */
export function parseRankingWidget($: CheerioAPI, pageUrl: string): WidgetResult<Ranking> {
  const section = sidebarWidget($, RANKING_HEADINGS);
  const result: WidgetResult<Ranking> = { data: { weekly: [], monthly: [], allTime: [] }, missing: [] };
  for (const [range, selector] of RANKING_TABS) {
    const items = section?.find(selector).first().find('li').toArray() ?? [];
    result.data[range] = items
      .map((li, index) => rankedSeries($, $(li), index, pageUrl))
      .filter((item): item is RankedSeries => item !== null);
    if (result.data[range].length === 0) result.missing.push(`ranking.${range}`);
  }
  return result;
}

/** The "NEW MOVIE" widget: the newest movies with their release dates. */
export function parseNewMovieWidget($: CheerioAPI, pageUrl: string): WidgetResult<LatestMovie[]> {
  const section = sidebarWidget($, NEW_MOVIE_HEADINGS);
  const movies: LatestMovie[] = [];
  for (const li of section?.find('li').toArray() ?? []) {
    const movie = latestMovie($, $(li), pageUrl);
    if (movie !== null) movies.push(movie);
  }
  return { data: movies, missing: movies.length > 0 ? [] : ['newMovieWidget'] };
}

function sidebarWidget($: CheerioAPI, names: readonly string[]): Cheerio<Element> | null {
  return blockByHeading($, $('#sidebar .releases'), names);
}

function rankedSeries($: CheerioAPI, item: Cheerio<Element>, index: number, pageUrl: string): RankedSeries | null {
  const entry = seriesEntry($, item, pageUrl);
  if (entry === null) return null;
  const rank = Number(cleanText(item.find('.ctr').first().text()));
  return {
    // The rank badge is the list position; fall back to the position if it is unreadable.
    rank: Number.isInteger(rank) && rank >= 1 ? rank : index + 1,
    ...entry,
    // Unrated series have no `.rt` block at all, hence no score.
    rating: parseRating(item.find('.rt .numscore').first().text()),
  };
}

function latestMovie($: CheerioAPI, item: Cheerio<Element>, pageUrl: string): LatestMovie | null {
  const entry = seriesEntry($, item, pageUrl);
  if (entry === null) return null;
  // The date is the only `span` of `.leftseries` without a "Genres" label or tag links.
  const dateSpan = item
    .find('.leftseries > span')
    .filter((_, span) => $(span).find('a, b').length === 0)
    .last();
  const releaseDateText = cleanText(dateSpan.text()) || null;
  return { ...entry, releaseDate: parseReleaseDate(releaseDateText), releaseDateText };
}

type SeriesEntry = Pick<RankedSeries, 'title' | 'slug' | 'url' | 'poster' | 'genres'>;

// Shared by the popular and new-movie lists: `h4 > a.series` (title), `.imgseries img`, genre tags.
function seriesEntry($: CheerioAPI, item: Cheerio<Element>, pageUrl: string): SeriesEntry | null {
  const link = item.find('h4 a').first();
  const title = cleanText(link.text()) || cleanText(link.attr('title'));
  const url = absoluteUrl(link.attr('href') ?? item.find('a.series[href]').first().attr('href'), pageUrl);
  const slug = url === null ? null : slugFromUrl(url);
  if (!title || url === null || slug === null) return null;
  const img = item.find('img').first();
  return {
    title,
    slug,
    url,
    poster: img.length > 0 ? imageSrc(img, pageUrl) : null,
    genres: genreTags($, item, pageUrl),
  };
}

function genreTags($: CheerioAPI, item: Cheerio<Element>, pageUrl: string): GenreTag[] {
  const tags: GenreTag[] = [];
  for (const link of item.find('a[rel~="tag"]').toArray()) {
    const url = absoluteUrl($(link).attr('href'), pageUrl);
    const name = cleanText($(link).text());
    const slug = url === null ? null : genreSlug(url);
    if (name && slug !== null) tags.push({ name, slug });
  }
  return tags;
}

/** The `{slug}` of a `/genres/{slug}/` link (or of `/genres/{slug}/page/2/`). */
function genreSlug(url: string): string | null {
  const prefix = /^\/genres\/[^/]+/.exec(new URL(url).pathname)?.[0];
  return slugFromUrl(prefix === undefined ? url : new URL(prefix, url).href);
}

function uniqueBySlug(genres: Genre[]): Genre[] {
  const bySlug = new Map<string, Genre>();
  for (const genre of genres) if (!bySlug.has(genre.slug)) bySlug.set(genre.slug, genre);
  return [...bySlug.values()];
}

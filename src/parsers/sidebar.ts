import { load, type CheerioAPI } from 'cheerio/slim';
import { isTag, type Element } from 'domhandler';
import type { Genre, GenreTag, LatestMovie, PopularSeriesData, RankedSeries } from '../contract/schemas.js';
import { blockByHeading, sidebarMarkup, sidebarWidgetMarkups } from './scope.js';
import { cleanText, parseRating, parseReleaseDate } from './text.js';
import { imageUrl, linkTarget, slugFromUrl } from './url.js';
import { allMatches, classNamesOf, elementText, firstMatch, firstMatches, hasAncestorWithin, hasClass, type Matcher } from './walk.js';

/** A sidebar widget's items plus the names of the parts that were not on the page. */
export interface WidgetResult<T> {
  data: T;
  missing: string[];
}

export type Ranking = PopularSeriesData['ranking'];

// The popular widget renders all three ranges and hides two of them with CSS.
const RANKING_TABS: Record<keyof Ranking, Matcher> = {
  weekly: (_el, classes) => classes.includes('wpop-weekly'),
  monthly: (_el, classes) => classes.includes('wpop-monthly'),
  allTime: (_el, classes) => classes.includes('wpop-alltime'),
};
const isListItem: Matcher = (el) => el.name === 'li';

/** A sidebar widget: the headings it is found by, and how its items are read from its block. */
export interface Widget<T> {
  headings: readonly string[];
  read($: CheerioAPI, section: Element | null, pageUrl: string): WidgetResult<T>;
}

/** The "Genres" widget: `ul.genre li a[href=/genres/{slug}/]`. */
export const GENRE_WIDGET: Widget<Genre[]> = {
  headings: ['genres', 'genre'],
  read($, section, pageUrl) {
    const genres: Genre[] = [];
    for (const link of section === null ? [] : allMatches(section, isGenreLink(section))) {
      const target = genreTarget(link.attribs['href'], pageUrl);
      const name = elementText($, link);
      if (target !== null && name) genres.push({ name, slug: target.slug, url: target.url });
    }
    const unique = uniqueBySlug(genres);
    return { data: unique, missing: unique.length > 0 ? [] : ['genreWidget'] };
  },
};

/** The "Popular Series" widget: weekly, monthly and all-time top lists. */
export const RANKING_WIDGET: Widget<Ranking> = {
  headings: ['popular series', 'popular'],
  read($, section, pageUrl) {
    const result: WidgetResult<Ranking> = { data: { weekly: [], monthly: [], allTime: [] }, missing: [] };
    const tabs = section === null ? {} : firstMatches(section, RANKING_TABS);
    for (const range of ['weekly', 'monthly', 'allTime'] as const) {
      const tab = tabs[range];
      const items = tab === undefined ? [] : allMatches(tab, isListItem);
      result.data[range] = items
        .map((li, index) => rankedSeries($, li, index, pageUrl))
        .filter((item): item is RankedSeries => item !== null);
      if (result.data[range].length === 0) result.missing.push(`ranking.${range}`);
    }
    return result;
  },
};

/** The "NEW MOVIE" widget: the newest movies with their release dates. */
export const NEW_MOVIE_WIDGET: Widget<LatestMovie[]> = {
  headings: ['new movie', 'new movies'],
  read($, section, pageUrl) {
    const movies: LatestMovie[] = [];
    for (const li of section === null ? [] : allMatches(section, isListItem)) {
      const movie = latestMovie($, li, pageUrl);
      if (movie !== null) movies.push(movie);
    }
    return { data: movies, missing: movies.length > 0 ? [] : ['newMovieWidget'] };
  },
};

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

/**
 * A widget of a page, read from its own markup alone (`sidebarWidgetMarkups`), for speed only: the
 * whole sidebar is many times a widget's size. Correctness rests on the fallback: the whole sidebar
 * is read when no cut holds the widget (no `div.section` around it, a heading the markup test
 * misses) or it has parts missing.
 */
export function parseWidgetOfPage<T>(html: string, widget: Widget<T>, pageUrl: string): WidgetResult<T> {
  const cut = widgetCut(html, widget.headings);
  const result = cut === null ? null : widget.read(cut.$, cut.block, pageUrl);
  return result !== null && result.missing.length === 0 ? result : readWidget(load(sidebarMarkup(html)), widget, pageUrl);
}

/** The first cut whose parsed heading confirms one of `names`, loaded, with its block. */
function widgetCut(html: string, names: readonly string[]): { $: CheerioAPI; block: Element } | null {
  for (const markup of sidebarWidgetMarkups(html, names)) {
    const $ = load(markup);
    // The cut starts with the widget's `div.section`; what follows it belongs to other blocks.
    const section = firstMatch($.root()[0]!, () => true);
    const block = section === undefined ? null : blockWithin($, section, names);
    if (block !== null) return { $, block };
  }
  return null;
}

function readWidget<T>($: CheerioAPI, widget: Widget<T>, pageUrl: string): WidgetResult<T> {
  return widget.read($, sidebarWidget($, widget.headings), pageUrl);
}

/** The sidebar block titled by one of `names`; the page is searched for `#sidebar` only until it is found. */
function sidebarWidget($: CheerioAPI, names: readonly string[]): Element | null {
  const sidebar = firstMatch($.root()[0]!, (el) => el.attribs['id'] === 'sidebar');
  return sidebar === undefined ? null : blockWithin($, sidebar, names);
}

/** The block below `scope` whose `.releases` header is titled by one of `names`. */
function blockWithin($: CheerioAPI, scope: Element, names: readonly string[]): Element | null {
  const headers = allMatches(scope, (_el, classes) => classes.includes('releases'));
  return blockByHeading($, $(headers), names)?.[0] ?? null;
}

/** `ul.genre li a` below `section`. */
function isGenreLink(section: Element): Matcher {
  return (el) =>
    el.name === 'a' &&
    hasAncestorWithin(el, section, (ancestor) => ancestor.name === 'li') &&
    hasAncestorWithin(el, section, (ancestor) => ancestor.name === 'ul' && hasClass(ancestor, 'genre'));
}

/** Every part the popular and new-movie list items are read from, found in one walk of the item. */
function itemParts(item: Element) {
  return firstMatches(item, {
    rank: (_el, classes) => classes.includes('ctr'),
    titleLink: (el) => el.name === 'a' && hasAncestorWithin(el, item, (ancestor) => ancestor.name === 'h4'),
    seriesLink: (el, classes) => el.name === 'a' && el.attribs['href'] !== undefined && classes.includes('series'),
    img: (el) => el.name === 'img',
    // Unrated series have no `.rt` block at all, hence no score.
    score: (el, classes) => classes.includes('numscore') && hasAncestorWithin(el, item, (ancestor) => hasClass(ancestor, 'rt')),
  });
}

function rankedSeries($: CheerioAPI, item: Element, index: number, pageUrl: string): RankedSeries | null {
  const parts = itemParts(item);
  const entry = seriesEntry($, item, parts, pageUrl);
  if (entry === null) return null;
  const rank = Number(elementText($, parts.rank));
  return {
    // The rank badge is the list position; fall back to the position if it is unreadable.
    rank: Number.isInteger(rank) && rank >= 1 ? rank : index + 1,
    ...entry,
    rating: parseRating(elementText($, parts.score)),
  };
}

function latestMovie($: CheerioAPI, item: Element, pageUrl: string): LatestMovie | null {
  const entry = seriesEntry($, item, itemParts(item), pageUrl);
  if (entry === null) return null;
  // The date is the only `span` of `.leftseries` without a "Genres" label or tag links.
  const dateSpans = allMatches(
    item,
    (el) =>
      el.name === 'span' &&
      el.parent !== null &&
      isTag(el.parent) &&
      hasClass(el.parent, 'leftseries') &&
      allMatches(el, (inner) => inner.name === 'a' || inner.name === 'b').length === 0,
  );
  const dateSpan = dateSpans[dateSpans.length - 1];
  const releaseDateText = elementText($, dateSpan) || null;
  return { ...entry, releaseDate: parseReleaseDate(releaseDateText), releaseDateText };
}

type SeriesEntry = Pick<RankedSeries, 'title' | 'slug' | 'url' | 'poster' | 'genres'>;
type ItemParts = ReturnType<typeof itemParts>;

// Shared by the popular and new-movie lists: `h4 > a.series` (title), `.imgseries img`, genre tags.
function seriesEntry($: CheerioAPI, item: Element, parts: ItemParts, pageUrl: string): SeriesEntry | null {
  const link = parts.titleLink;
  const title = elementText($, link) || cleanText(link?.attribs['title']);
  const target = linkTarget(link?.attribs['href'] ?? parts.seriesLink?.attribs['href'], pageUrl);
  if (!title || target === null) return null;
  return {
    title,
    ...target,
    poster: imageUrl(parts.img, pageUrl),
    genres: genreTags($, item, pageUrl),
  };
}

function genreTags($: CheerioAPI, item: Element, pageUrl: string): GenreTag[] {
  const tags: GenreTag[] = [];
  const isTagLink: Matcher = (el) => el.name === 'a' && classNamesOf(el.attribs['rel']).includes('tag');
  for (const link of allMatches(item, isTagLink)) {
    const target = genreTarget(link.attribs['href'], pageUrl);
    const name = elementText($, link);
    if (name && target !== null) tags.push({ name, slug: target.slug });
  }
  return tags;
}

// `https://host/genres/action` of `https://host/genres/action/page/2/`; `url` is absolute already.
const GENRE_PATH = /^[a-z][a-z\d+.-]*:\/\/[^/?#]+\/genres\/[^/?#]+/i;

/**
 * Where a genre link points, with the `{slug}` of `/genres/{slug}/` (or of `/genres/{slug}/page/2/`):
 * one URL parse for the usual link, where the slug is its last segment; null without either.
 */
function genreTarget(href: string | undefined, pageUrl: string): { url: string; slug: string } | null {
  const target = linkTarget(href, pageUrl);
  const genrePath = target === null ? undefined : GENRE_PATH.exec(target.url)?.[0];
  // Past the genre's own path (a page of it, a query) the last segment is not the genre's.
  if (target === null || genrePath === undefined || target.url.length <= genrePath.length + 1) return target;
  const slug = slugFromUrl(genrePath);
  return slug === null ? null : { url: target.url, slug };
}

function uniqueBySlug(genres: Genre[]): Genre[] {
  const bySlug = new Map<string, Genre>();
  for (const genre of genres) if (!bySlug.has(genre.slug)) bySlug.set(genre.slug, genre);
  return [...bySlug.values()];
}

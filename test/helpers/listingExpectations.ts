import type { Series } from '../simulator/dataset.js';
import { episodeSlug, episodesOf } from '../simulator/episodes.js';
import * as listings from '../simulator/listings.js';
import { catalogOf, genreUrl, seriesUrl, type PageContext } from '../simulator/pages/context.js';
import { imageStyleAt, posterUrl } from '../simulator/pages/images.js';
import { termsOf } from '../simulator/taxonomies.js';

// What our parsers must give for the simulator's listing pages, computed from its dataset (never
// from our parsers' output); shared by the parser tests on simulator pages and the integration tests.

export function posterOf(ctx: PageContext, series: Series, index: number): string {
  return posterUrl(ctx, series.poster, imageStyleAt(ctx, index), index);
}

export function expectedSeriesCard(ctx: PageContext, series: Series, index: number) {
  return {
    title: series.title,
    slug: series.slug,
    url: seriesUrl(ctx, series),
    poster: posterOf(ctx, series, index),
    type: series.type,
    status: series.status,
    sub: series.sub,
  };
}

/**
 * A home Recommendation card: the series card, or on a profile whose tabs list episode posts, the
 * series' latest post as a series card: the post's title, slug and URL; its corner reads the
 * episode, so the status is only the Completed badge's.
 */
export function expectedRecommendationCard(ctx: PageContext, series: Series, index: number) {
  const latest = ctx.variant.recommendationCards === 'episode' ? episodesOf(series)[0] : undefined;
  if (latest === undefined) return expectedSeriesCard(ctx, series, index);
  return {
    title: latest.title,
    slug: episodeSlug(latest),
    url: `${ctx.origin}${latest.path}`,
    poster: posterOf(ctx, series, index),
    type: series.type,
    status: series.status === 'Completed' ? series.status : null,
    sub: series.sub,
  };
}

export function expectedSeasonCards(ctx: PageContext, slug: string) {
  return listings.seasonListing(slug, catalogOf(ctx)).map((series, index) => ({
    title: series.title,
    slug: series.slug,
    url: seriesUrl(ctx, series),
    poster: posterOf(ctx, series, index),
    alternativeTitle: series.altTitles.length === 0 ? null : series.altTitles.join(', '),
    studio: termsOf(series).studio.name,
    episodes: series.latestEpisode,
    type: series.type ?? 'TV',
    rating: series.rating,
    status: series.status,
    synopsis: series.synopsis,
    genres: series.genres.map((genre) => ({ name: genre.name, slug: genre.slug, url: genreUrl(ctx, genre) })),
  }));
}

/** The schedule Monday first, as the API answers it whatever order the page prints. */
export function expectedScheduleDays(ctx: PageContext) {
  return listings.scheduleByDay(catalogOf(ctx)).map(({ day, entries }) => ({
    day,
    label: day.charAt(0).toUpperCase() + day.slice(1),
    items: entries.map((entry, index) => ({
      title: entry.series.title,
      slug: entry.series.slug,
      url: seriesUrl(ctx, entry.series),
      poster: posterOf(ctx, entry.series, index),
      nextEpisode: entry.nextEpisode,
      releaseAt: entry.releaseAt === null ? null : new Date(entry.releaseAt * 1000).toISOString(),
      timeText: entry.timeText,
    })),
  }));
}

/** The pagination of a listing's first page, given its next page and page count. */
export const firstPage = (nextPage: number | null, totalPages: number | null) => ({
  currentPage: 1,
  hasPrevPage: false,
  prevPage: null,
  hasNextPage: nextPage !== null,
  nextPage,
  totalPages,
});

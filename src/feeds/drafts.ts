import type { HomeData, NewMovieData } from '../contract/schemas.js';
import type { SeriesDetail } from '../contract/series.js';
import { upstreamSlug } from '../contract/params.js';
import type { DraftEntry, DraftFeed } from './model.js';

// Pure functions from a catalog answer's data to a feed without dates: no fetch, no HTML.

/** How many episodes a series feed carries, newest first. */
export const SERIES_FEED_SIZE = 50;

/** Turns an upstream URL into the entry's stable id; see canonicalUrlOf. */
export type Canonical = (url: string) => string;

/**
 * An upstream URL under the first configured origin, so that an entry keeps its id when the
 * service fails over to a mirror or follows a domain move.
 */
export function canonicalUrlOf(origin: string): Canonical {
  return (url) => {
    const parsed = new URL(url);
    return `${origin}${parsed.pathname}${parsed.search}`;
  };
}

/** "Series · Episode 12 · Sub · Donghua": what a chat line needs, without the parts the page leaves out. */
function summaryOf(parts: (string | null)[]): string {
  return parts.filter((part): part is string => part !== null && part !== '').join(' · ');
}

const episodeLabel = (episode: number | null) => (episode === null ? null : `Episode ${episode}`);
const episodeApiPath = (slug: string) => `/catalog/episode/${upstreamSlug(slug)}`;
const seriesApiPath = (slug: string) => `/catalog/series/${upstreamSlug(slug)}`;

/** The home page's latest releases (its first page), newest first. */
export function latestReleasesDraft(data: HomeData, source: string, canonical: Canonical): DraftFeed {
  return {
    title: 'Episode terbaru · Donghua Catalog',
    description: 'The newest episode releases of the whole site, newest first.',
    siteUrl: source,
    image: null,
    entries: data.latestRelease.map((card): DraftEntry => ({
      id: canonical(card.url),
      title: card.episodeTitle,
      siteUrl: card.url,
      apiPath: episodeApiPath(card.slug),
      image: card.poster,
      summary: summaryOf([card.seriesTitle, episodeLabel(card.episode), card.sub, card.type]),
      releaseDate: null,
    })),
  };
}

/** The newest SERIES_FEED_SIZE episodes of one series, newest first as the site lists them. */
export function seriesEpisodesDraft(series: SeriesDetail, canonical: Canonical): DraftFeed {
  return {
    title: `${series.title} · Donghua Catalog`,
    description: `The newest episodes of ${series.title}, newest first.`,
    siteUrl: series.url,
    image: series.poster,
    entries: series.episodes.slice(0, SERIES_FEED_SIZE).map((episode): DraftEntry => ({
      id: canonical(episode.url),
      title: episode.title,
      siteUrl: episode.url,
      apiPath: episodeApiPath(episode.slug),
      image: series.poster,
      summary: summaryOf([series.title, episodeLabel(episode.episode), episode.sub, series.type]),
      releaseDate: episode.releaseDate,
    })),
  };
}

/** The newest movies (the site's movie list by update), dated by the "NEW MOVIE" widget where it names them. */
export function moviesDraft(data: NewMovieData, source: string, canonical: Canonical): DraftFeed {
  const releaseDates = new Map(data.latest.map((movie) => [movie.slug, movie.releaseDate]));
  return {
    title: 'Film terbaru · Donghua Catalog',
    description: 'The newest movies, newest first.',
    siteUrl: source,
    image: null,
    entries: data.movies.map((movie): DraftEntry => ({
      id: canonical(movie.url),
      title: movie.title,
      siteUrl: movie.url,
      apiPath: seriesApiPath(movie.slug),
      image: movie.poster,
      summary: summaryOf([movie.title, movie.status, movie.sub, movie.type]),
      releaseDate: releaseDates.get(movie.slug) ?? null,
    })),
  };
}

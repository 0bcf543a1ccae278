import { z } from 'zod';
import { endpoints, type AnyEndpoint } from '../catalog/endpoints/index.js';
import type { HomeData, NewMovieData } from '../contract/schemas.js';
import type { SeriesDetail } from '../contract/series.js';
import { latestReleasesDraft, moviesDraft, seriesEpisodesDraft, SERIES_FEED_SIZE, type Canonical } from './drafts.js';
import type { DraftFeed } from './model.js';

/** A catalog answer's body as the service cached it. */
export interface CatalogBody {
  data: unknown;
  meta: { source: string };
}

export interface FeedDefinition {
  /** Without the extension; path parameters in braces, e.g. "/feeds/series/{slug}". */
  path: `/feeds/${string}`;
  summary: string;
  description: string;
  /** The catalog endpoint whose answer the feed is built from: its cache, TTL, fetch and errors. */
  endpoint: AnyEndpoint;
  /** The path parameters, named as the endpoint's input names them. */
  params: z.ZodObject;
  draft(body: CatalogBody, canonical: Canonical): DraftFeed;
}

function catalogEndpoint(path: string): AnyEndpoint {
  const found = endpoints.find((entry) => entry.path === path);
  if (found === undefined) throw new Error(`No catalog endpoint ${path} to build a feed from`);
  return found;
}

const series = catalogEndpoint('/catalog/series/{slug}');

// The catalog validated and typed each answer's data with the endpoint's schema before caching it.
/** The feed table: routes, the API reference and /openapi.json read it. */
export const feeds: readonly FeedDefinition[] = [
  {
    path: '/feeds/latest',
    summary: 'The newest episode releases of the whole site',
    description:
      "The first page of the home page's latest releases, newest first. The site gives these no date: each entry is dated by the moment this service first saw it, remembered so that it never changes.",
    endpoint: catalogEndpoint('/catalog/home'),
    params: z.object({}),
    draft: (body, canonical) => latestReleasesDraft(body.data as HomeData, body.meta.source, canonical),
  },
  {
    path: '/feeds/series/{slug}',
    summary: `The newest ${SERIES_FEED_SIZE} episodes of one series`,
    description: `The series page's episode list, newest ${SERIES_FEED_SIZE} first, each dated by its release date (midnight in Asia/Jakarta, +07:00), or by the moment this service first saw it where the page gives none.`,
    endpoint: series,
    params: series.params,
    draft: (body, canonical) => seriesEpisodesDraft(body.data as SeriesDetail, canonical),
  },
  {
    path: '/feeds/movies',
    summary: 'The newest movies',
    description:
      'The movie list, newest first, dated by the release date the "NEW MOVIE" widget gives, or by the moment this service first saw the movie.',
    endpoint: catalogEndpoint('/catalog/new-movie'),
    params: z.object({}),
    draft: (body, canonical) => moviesDraft(body.data as NewMovieData, body.meta.source, canonical),
  },
];

import { z } from 'zod';

// The public shapes of the API contract. Parsers return these types, routes validate queries
// with them, and the API reference is generated from them: one source of truth.

export const absoluteUrl = z.string().describe('Absolute URL');
export const nullableText = z.string().nullable();

export const SeriesCard = z
  .object({
    title: z.string(),
    slug: z.string(),
    url: absoluteUrl,
    poster: absoluteUrl.nullable(),
    type: nullableText.describe('Type badge, e.g. "Donghua", "Movie", "ONA", "Live Action"'),
    status: nullableText.describe('"Ongoing", "Completed", "Upcoming", "Hiatus", or null'),
    sub: nullableText.describe('Subtitle badge, usually "Sub"'),
  })
  .meta({ id: 'SeriesCard' });

export const EpisodeCard = z
  .object({
    seriesTitle: z.string(),
    episodeTitle: z.string(),
    episode: z.number().nullable().describe('Number parsed from "Ep 124"; null for movies'),
    slug: z.string(),
    url: absoluteUrl,
    poster: absoluteUrl.nullable(),
    type: nullableText,
    sub: nullableText,
  })
  .meta({ id: 'EpisodeCard' });

export const SliderItem = z
  .object({
    title: z.string(),
    slug: z.string(),
    url: absoluteUrl,
    banner: absoluteUrl.nullable(),
    synopsis: nullableText,
  })
  .meta({ id: 'SliderItem' });

export const RecommendationGroup = z.object({ genre: z.string(), items: z.array(SeriesCard) }).meta({ id: 'RecommendationGroup' });

export const Genre = z.object({ name: z.string(), slug: z.string(), url: absoluteUrl }).meta({ id: 'Genre' });

/** A taxonomy term the upstream links to: a genre, tag, studio, network, country or season. */
export const Term = z.object({ name: z.string(), slug: z.string(), url: absoluteUrl }).meta({ id: 'Term' });

export const GenreTag = z.object({ name: z.string(), slug: z.string() }).meta({ id: 'GenreTag' });

export const RankedSeries = z
  .object({
    rank: z.number().int(),
    title: z.string(),
    slug: z.string(),
    url: absoluteUrl,
    poster: absoluteUrl.nullable(),
    genres: z.array(GenreTag),
    rating: z.number().nullable().describe('Numeric rating such as 9.2, or null when unrated'),
  })
  .meta({ id: 'RankedSeries' });

export const LatestMovie = z
  .object({
    title: z.string(),
    slug: z.string(),
    url: absoluteUrl,
    poster: absoluteUrl.nullable(),
    genres: z.array(GenreTag),
    releaseDate: z.string().nullable().describe('ISO YYYY-MM-DD when the upstream text parses'),
    releaseDateText: nullableText.describe('The release date exactly as the upstream shows it'),
  })
  .meta({ id: 'LatestMovie' });

export const Pagination = z
  .object({
    currentPage: z.number().int(),
    hasPrevPage: z.boolean(),
    prevPage: z.number().int().nullable(),
    hasNextPage: z.boolean(),
    nextPage: z.number().int().nullable(),
    totalPages: z.number().int().nullable().describe('null where the upstream does not say'),
  })
  .meta({ id: 'Pagination' });

export const HomeData = z.object({
  slider: z.array(SliderItem),
  popularToday: z.array(EpisodeCard),
  latestRelease: z.array(EpisodeCard),
  recommendations: z.array(RecommendationGroup),
});

export const SearchData = z.object({ query: z.string(), results: z.array(SeriesCard) });

export const GenresData = z.object({ genres: z.array(Genre) });

export const OngoingSeriesData = z.object({ series: z.array(SeriesCard) });

export const PopularSeriesData = z.object({
  series: z.array(SeriesCard),
  ranking: z.object({
    weekly: z.array(RankedSeries),
    monthly: z.array(RankedSeries),
    allTime: z.array(RankedSeries),
  }),
});

export const NewMovieData = z.object({ movies: z.array(SeriesCard), latest: z.array(LatestMovie) });

export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({
    status: z.literal('success'),
    data,
    pagination: Pagination.nullable(),
    meta: Meta,
  });
}

export const ErrorCode = z.enum([
  'INVALID_PARAMETER',
  'UNAUTHORIZED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RANGE_NOT_SATISFIABLE',
  'RATE_LIMITED',
  'REQUEST_HEADERS_TOO_LARGE',
  'UPSTREAM_ERROR',
  'UPSTREAM_LAYOUT_CHANGED',
  'UPSTREAM_BLOCKED',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  'SERVICE_BUSY',
  'CATALOG_NOT_READY',
  'REPORT_NOT_STORED',
  'INTERNAL_ERROR',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** The failures a kept answer stands in for: the upstream's own, and this service's queue being full. */
export const StaleReason = ErrorCode.extract([
  'UPSTREAM_ERROR',
  'UPSTREAM_LAYOUT_CHANGED',
  'UPSTREAM_BLOCKED',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  'SERVICE_BUSY',
]);
export type StaleReason = z.infer<typeof StaleReason>;

export const Meta = z.object({
  source: absoluteUrl.describe('The upstream URL the data was parsed from'),
  fetchedAt: z.string().describe('ISO timestamp of the upstream fetch'),
  stale: z
    .object({
      since: z.string().describe('ISO timestamp of the upstream fetch this answer comes from (the same as fetchedAt)'),
      reason: StaleReason.describe('The error code the request would have got without a kept answer'),
    })
    .optional()
    .describe(
      'Present only when the upstream failed and this is the last good answer kept for the request (X-Cache: STALE, Age in seconds since the fetch). Absent on every fresh answer.',
    ),
  catalogComplete: z
    .boolean()
    .optional()
    .describe(
      'Only on answers from the local catalog (search with source=catalog): false while the crawler has not yet read every series the site lists, so the answer holds what is known so far. For these answers source is the upstream origin and fetchedAt when the answer was built.',
    ),
});

export const ErrorDetail = z
  .object({
    field: z.string().describe('The query parameter or body field at fault'),
    rule: z.string().describe('Which rule it broke'),
    message: z.string(),
  })
  .meta({ id: 'ErrorDetail' });

export const ErrorEnvelope = z
  .object({
    status: z.literal('error'),
    error: z.object({
      code: ErrorCode,
      message: z.string().describe('A sentence a person can act on'),
      details: z.array(ErrorDetail),
    }),
    requestId: z.string(),
    reportUrl: z.string().describe('Report Center link pre-filled for this endpoint and error'),
  })
  .meta({ id: 'Error' });

export type SeriesCard = z.infer<typeof SeriesCard>;
export type EpisodeCard = z.infer<typeof EpisodeCard>;
export type SliderItem = z.infer<typeof SliderItem>;
export type RecommendationGroup = z.infer<typeof RecommendationGroup>;
export type Genre = z.infer<typeof Genre>;
export type GenreTag = z.infer<typeof GenreTag>;
export type Term = z.infer<typeof Term>;
export type RankedSeries = z.infer<typeof RankedSeries>;
export type LatestMovie = z.infer<typeof LatestMovie>;
export type Pagination = z.infer<typeof Pagination>;
export type HomeData = z.infer<typeof HomeData>;
export type SearchData = z.infer<typeof SearchData>;
export type GenresData = z.infer<typeof GenresData>;
export type OngoingSeriesData = z.infer<typeof OngoingSeriesData>;
export type PopularSeriesData = z.infer<typeof PopularSeriesData>;
export type NewMovieData = z.infer<typeof NewMovieData>;
export type ErrorDetail = z.infer<typeof ErrorDetail>;
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

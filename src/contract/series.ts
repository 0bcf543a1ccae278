import { z } from 'zod';
import { absoluteUrl, nullableText, Term } from './schemas.js';

// The series page and the episode page (`/catalog/series/{slug}`, `/catalog/episode/{slug}`).

const episodeNumber = z.number().nullable().describe('The episode number ("01" → 1), or null (a movie)');
const isoDate = z.string().nullable().describe('ISO YYYY-MM-DD when the upstream text parses');

/** A link to one episode: the first and latest episode of a series. */
export const EpisodeRef = z.object({ episode: episodeNumber, slug: z.string(), url: absoluteUrl }).meta({ id: 'EpisodeRef' });

export const EpisodeEntry = z
  .object({
    episode: episodeNumber,
    title: z.string(),
    slug: z.string(),
    url: absoluteUrl,
    sub: nullableText.describe('Subtitle badge, usually "Sub"'),
    releaseDate: isoDate,
    releaseDateText: nullableText.describe('The date exactly as the upstream shows it, e.g. "April 25, 2026"'),
  })
  .meta({ id: 'EpisodeEntry' });

export const DownloadLink = z.object({ host: z.string(), url: absoluteUrl }).meta({ id: 'DownloadLink' });

export const DownloadGroup = z
  .object({
    title: z.string().describe('e.g. "Title Batch Episode 1 - 25", or the episode title'),
    qualities: z.array(z.object({ quality: z.string().describe('"360p", "480p", "720p", "1080p", "4K"…'), links: z.array(DownloadLink) })),
  })
  .meta({ id: 'DownloadGroup' });

export const InfoEntry = z
  .object({ label: z.string(), value: z.string() })
  .meta({ id: 'InfoEntry', description: 'An info row that has no field of its own (Fansub, Director, Casts, Censor…)' });

export const SeriesDetail = z
  .object({
    title: z.string(),
    slug: z.string(),
    url: absoluteUrl,
    alternativeTitle: nullableText,
    poster: absoluteUrl.nullable(),
    banner: absoluteUrl.nullable().describe('null on a page without a cover'),
    synopsis: nullableText.describe('The real description, paragraphs joined by a blank line'),
    status: nullableText.describe('"Ongoing", "Completed", "Upcoming", "Hiatus", or null'),
    type: nullableText.describe('e.g. "Donghua", "Movie", "ONA"'),
    rating: z.number().nullable().describe('Numeric rating such as 9.2, or null when unrated'),
    trailer: absoluteUrl.nullable(),
    followers: z.number().int().nullable().describe('From "Followed 7814 people"'),
    networks: z.array(Term),
    studios: z.array(Term),
    season: Term.nullable(),
    country: Term.nullable(),
    released: nullableText.describe('The release date as shown, e.g. "Jul 31, 2022"'),
    releaseDate: isoDate,
    duration: nullableText.describe('As shown, e.g. "24 min. per ep."'),
    episodeCount: z.number().int().nullable().describe('The declared count ("Episodes: 52"); it may differ from the list'),
    publishedAt: nullableText.describe("The page's ISO datetime of publication"),
    updatedAt: nullableText.describe("The page's ISO datetime of its last update"),
    genres: z.array(Term),
    tags: z.array(Term),
    otherInfo: z.array(InfoEntry),
    firstEpisode: EpisodeRef.nullable(),
    latestEpisode: EpisodeRef.nullable(),
    episodes: z.array(EpisodeEntry).describe('Newest first, as the site lists them'),
    batches: z.array(DownloadGroup),
  })
  .meta({ id: 'SeriesDetail' });

export const PageLink = z.object({ slug: z.string(), url: absoluteUrl }).meta({ id: 'PageLink' });

export const VideoServer = z
  .object({ name: z.string(), url: absoluteUrl.describe('The embed URL (the iframe src)') })
  .meta({ id: 'VideoServer' });

export const EpisodeListItem = z
  .object({
    episode: episodeNumber,
    title: z.string(),
    slug: z.string(),
    url: absoluteUrl,
    poster: absoluteUrl.nullable(),
    releaseDateText: nullableText,
  })
  .meta({ id: 'EpisodeListItem' });

export const Episode = z
  .object({
    title: z.string(),
    slug: z.string(),
    url: absoluteUrl,
    episode: episodeNumber,
    series: z.object({ title: z.string(), slug: z.string(), url: absoluteUrl }).nullable(),
    poster: absoluteUrl.nullable(),
    type: nullableText,
    sub: nullableText,
    releaseDate: isoDate,
    releaseDateText: nullableText,
    servers: z.array(VideoServer).describe('The default embed first, then every server of the drop-down'),
    downloads: z.array(DownloadGroup),
    navigation: z.object({
      previous: PageLink.nullable(),
      next: PageLink.nullable(),
      allEpisodes: absoluteUrl.nullable(),
    }),
    episodes: z.array(EpisodeListItem).describe("The page's own episode list of the series, as shown"),
  })
  .meta({ id: 'Episode' });

export type EpisodeRef = z.infer<typeof EpisodeRef>;
export type EpisodeEntry = z.infer<typeof EpisodeEntry>;
export type DownloadLink = z.infer<typeof DownloadLink>;
export type DownloadGroup = z.infer<typeof DownloadGroup>;
export type InfoEntry = z.infer<typeof InfoEntry>;
export type SeriesDetail = z.infer<typeof SeriesDetail>;
export type PageLink = z.infer<typeof PageLink>;
export type VideoServer = z.infer<typeof VideoServer>;
export type EpisodeListItem = z.infer<typeof EpisodeListItem>;
export type Episode = z.infer<typeof Episode>;

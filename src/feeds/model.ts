/** The three formats every feed exists in, by the extension that chooses one. */
export const FEED_FORMATS = {
  atom: { mediaType: 'application/atom+xml; charset=utf-8', name: 'Atom 1.0' },
  rss: { mediaType: 'application/rss+xml; charset=utf-8', name: 'RSS 2.0' },
  json: { mediaType: 'application/feed+json; charset=utf-8', name: 'JSON Feed 1.1' },
} as const;

export type FeedFormat = keyof typeof FEED_FORMATS;

export const isFeedFormat = (extension: string): extension is FeedFormat => Object.hasOwn(FEED_FORMATS, extension);

/** One entry as the catalog answer gives it, before it has a date. */
export interface DraftEntry {
  /** The canonical upstream URL of the episode or movie: the entry's id for ever. */
  id: string;
  title: string;
  /** The site's page of the entry. */
  siteUrl: string;
  /** Its JSON in this API, relative to the service's base URL ("/catalog/episode/{slug}"). */
  apiPath: string;
  image: string | null;
  summary: string;
  /** The release date the page gives (ISO YYYY-MM-DD), or null when it gives none. */
  releaseDate: string | null;
}

/** A feed as the catalog answer gives it: everything but the dates of entries without a release date. */
export interface DraftFeed {
  title: string;
  description: string;
  /** The site's page the feed follows. */
  siteUrl: string;
  image: string | null;
  entries: DraftEntry[];
}

export interface FeedEntry extends Omit<DraftEntry, 'releaseDate'> {
  /** Published and updated: the release date, or the moment the service first saw the entry. */
  date: Date;
}

/** One model of a feed, which every format renders, so that the three can never disagree. */
export interface FeedModel extends Omit<DraftFeed, 'entries'> {
  entries: FeedEntry[];
  /** The newest entry's date: the feed's `updated` / `lastBuildDate` and its Last-Modified. */
  updated: Date;
  /** How long a reader should wait before asking again, in seconds (the catalog answer's TTL). */
  ttlSeconds: number;
}

/** A bare release date is midnight in Asia/Jakarta, where the site publishes. */
export const releaseDateTime = (isoDay: string): Date => new Date(`${isoDay}T00:00:00+07:00`);

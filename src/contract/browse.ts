import { z } from 'zod';
import { choiceParam, isUpstreamSlug, pageParam, queryParam, SLUG_MAX } from './params.js';
import { absoluteUrl, nullableText, SeriesCard, Term } from './schemas.js';

// Every listing of the site beyond the first six: completed, taxonomy and season pages, the
// schedule, the A–Z list and the site's own filter. Shapes first, then their query parameters.

export const TermListingData = z
  .object({
    term: Term.describe('The genre, studio, network or country the page lists, from its heading'),
    series: z.array(SeriesCard),
  })
  .meta({ id: 'TermListing' });

export const CompletedSeriesData = z.object({ series: z.array(SeriesCard) });

export const SeasonCard = z
  .object({
    title: z.string(),
    slug: z.string(),
    url: absoluteUrl,
    poster: absoluteUrl.nullable(),
    alternativeTitle: nullableText,
    studio: nullableText,
    episodes: z.number().int().nullable().describe('Episode count from "12 episodes"; null when the site shows "?"'),
    type: nullableText.describe('e.g. "Donghua", "Movie"'),
    rating: z.number().nullable().describe('Numeric rating such as 8.5, or null when unrated'),
    status: nullableText,
    synopsis: nullableText,
    genres: z.array(Term),
  })
  .meta({ id: 'SeasonCard' });

export const SeasonData = z
  .object({ term: Term.describe('The season, e.g. "2025" or "Summer 2022"'), series: z.array(SeasonCard) })
  .meta({ id: 'SeasonListing' });

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const Scheduled = z
  .object({
    title: z.string(),
    slug: z.string(),
    url: absoluteUrl,
    poster: absoluteUrl.nullable(),
    nextEpisode: z.number().nullable().describe('The next episode\'s number; null when the site shows "??"'),
    releaseAt: z.string().nullable().describe("ISO datetime from the countdown's Unix timestamp; null once released"),
    timeText: nullableText.describe('As the site shows it, e.g. "at 10:33" or "Released"'),
  })
  .meta({ id: 'Scheduled' });

export const ScheduleDay = z
  .object({
    day: z.enum(WEEKDAYS),
    label: z.string().describe('The day as the site writes it, e.g. "Monday"'),
    items: z.array(Scheduled),
  })
  .meta({ id: 'ScheduleDay' });

export const ScheduleData = z.object({ days: z.array(ScheduleDay).describe('Monday first') });

/** The A–Z list's letters as our API takes them; `#` (titles that start with a sign) is the site's `.`. */
export const AZ_LETTERS = ['#', '0-9', ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'] as const;

export const AzListData = z
  .object({
    letter: z.string().nullable().describe('The letter listed (A–Z, 0-9 or #); null for the whole list'),
    series: z.array(SeriesCard),
  })
  .meta({ id: 'AzList' });

// The values of the site's own quick-filter form, in its order.
export const FILTER_STATUSES = ['ongoing', 'completed', 'upcoming', 'hiatus'] as const;
export const FILTER_TYPES = ['donghua', 'movie', 'ona', 'ova', 'special', 'anime', 'live action', 'bd', 'music'] as const;
export const FILTER_ORDERS = ['title', 'titlereverse', 'update', 'latest', 'popular', 'rating'] as const;
export const FILTER_LIST_MAX = 10;

export const SeriesFilters = z
  .object({
    status: z.enum(FILTER_STATUSES).nullable(),
    type: z.enum(FILTER_TYPES).nullable(),
    order: z.enum(FILTER_ORDERS).nullable(),
    genre: z.array(z.string()),
    season: z.array(z.string()),
    studio: z.array(z.string()),
  })
  .meta({ id: 'SeriesFilters' });

export const SeriesFilterData = z
  .object({ filters: SeriesFilters.describe('The filters applied, as validated'), series: z.array(SeriesCard) })
  .meta({ id: 'SeriesFilter' });

const letterParam = queryParam('letter', (raw) => {
  const text = raw?.trim().toUpperCase() ?? '';
  if (text === '') return null;
  return (AZ_LETTERS as readonly string[]).includes(text)
    ? text
    : {
        message: `letter must be one of ${AZ_LETTERS.join(' ')} (# sent as %23), or absent for the whole list`,
        rule: `one of ${AZ_LETTERS.join(' ')}`,
      };
}).meta({
  description: 'A letter of the A–Z list: A to Z, 0-9 or # (sent as %23); absent for the whole list',
  type: 'string',
  enum: [...AZ_LETTERS],
});

/** Comma-separated slugs, each by the contract's slug rule, at most FILTER_LIST_MAX; duplicates dropped. */
function slugListParam(field: string, what: string) {
  return queryParam(field, (raw) => {
    const slugs = [
      ...new Set(
        (raw ?? '')
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ];
    if (slugs.length > FILTER_LIST_MAX)
      return { message: `${field} takes at most ${FILTER_LIST_MAX} slugs`, rule: `at most ${FILTER_LIST_MAX} slugs` };
    const bad = slugs.find((slug) => !isUpstreamSlug(slug));
    if (bad !== undefined)
      return {
        message: `${field} must be comma-separated ${what} slugs: lower-case letters, digits and hyphens (or percent-encoded UTF-8), 1 to ${SLUG_MAX} characters each`,
        rule: 'comma-separated slugs',
      };
    return slugs;
  }).meta({
    description: `Comma-separated ${what} slugs (at most ${FILTER_LIST_MAX}), e.g. the \`slug\` of our answers`,
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: SLUG_MAX, pattern: '^(?:[a-z0-9-]|%[0-9a-fA-F]{2})+$' },
    maxItems: FILTER_LIST_MAX,
  });
}

export const AzListQuery = z.object({ letter: letterParam, page: pageParam });

export const SeriesFilterQuery = z.object({
  status: choiceParam('status', FILTER_STATUSES, 'Status'),
  type: choiceParam('type', FILTER_TYPES, 'Type'),
  order: choiceParam('order', FILTER_ORDERS, 'Order'),
  genre: slugListParam('genre', 'genre'),
  season: slugListParam('season', 'season'),
  studio: slugListParam('studio', 'studio'),
  page: pageParam,
});

export type TermListingData = z.infer<typeof TermListingData>;
export type CompletedSeriesData = z.infer<typeof CompletedSeriesData>;
export type SeasonCard = z.infer<typeof SeasonCard>;
export type SeasonData = z.infer<typeof SeasonData>;
export type Scheduled = z.infer<typeof Scheduled>;
export type ScheduleDay = z.infer<typeof ScheduleDay>;
export type ScheduleData = z.infer<typeof ScheduleData>;
export type AzListData = z.infer<typeof AzListData>;
export type SeriesFilters = z.infer<typeof SeriesFilters>;
export type SeriesFilterData = z.infer<typeof SeriesFilterData>;

import { SEASONS, SERIES, SITE_NOW, STUDIOS, type Series, type Term } from './dataset.js';
import { DEFAULT_CATALOG, type LiveCatalog } from './liveCatalog.js';

/**
 * The terms a series has beyond its genres (studio, network, country, season) and its slot in the
 * weekly schedule, derived from the dataset by fixed rules so tests can compute the same values.
 */

export type Taxonomy = 'genres' | 'studio' | 'network' | 'country' | 'season';

/** The API reference's example studio (src/openapi/examples), so its code samples work here too; not in the quick filter. */
const EXAMPLE_STUDIO: Term = { name: 'BUILD DREAM', slug: 'build-dream' };

/** Studios that have series: a few of the quick filter's, so their pages run over several pages, the example studio, and one UTF-8 slug. */
export const SERIES_STUDIOS: readonly Term[] = [...STUDIOS.slice(0, 6), EXAMPLE_STUDIO, { name: 'L²Studio', slug: 'l²studio' }];
export const NETWORKS: readonly Term[] = [
  { name: 'Bilibili', slug: 'bilibili' },
  { name: 'Tencent Video', slug: 'tencent-video' },
  { name: 'iQIYI', slug: 'iqiyi' },
  { name: 'Youku', slug: 'youku' },
  { name: 'Mango TV', slug: 'mango-tv' },
];
const COUNTRIES: readonly Term[] = [
  { name: 'China', slug: 'china' },
  { name: 'Hong Kong', slug: 'hong-kong' },
];

/** The studio term whose slug is UTF-8 (`l%c2%b2studio` in URLs). */
export const UTF8_STUDIO = SERIES_STUDIOS[SERIES_STUDIOS.length - 1] as Term;

function termAt(terms: readonly Term[], index: number): Term {
  return terms[index % terms.length] as Term;
}

/** Upload year of the poster (`/wp-content/uploads/2024/07/…`): the season a series aired in. */
function seasonOf(series: Series): Term {
  const [, year, month] = /\/uploads\/(\d{4})\/(\d{2})\//.exec(series.poster) ?? [];
  const summer2022 = year === '2022' && ['06', '07', '08'].includes(month ?? '');
  const slug = summer2022 ? 'summer-2022' : (year ?? '2026');
  return SEASONS.find((season) => season.slug === slug) as Term;
}

export interface SeriesTerms {
  readonly studio: Term;
  readonly network: Term;
  readonly country: Term;
  readonly season: Term;
}

/** The default dataset's series take their studio and network by their place in it; other series by their post id. */
const DEFAULT_PLACE = new Map<string, number>(SERIES.map((series, index) => [series.slug, index]));

export function termsOf(series: Series): SeriesTerms {
  const place = DEFAULT_PLACE.get(series.slug) ?? series.id;
  return {
    studio: termAt(SERIES_STUDIOS, place),
    network: termAt(NETWORKS, place),
    country: series.type === 'Live Action' ? (COUNTRIES[1] as Term) : (COUNTRIES[0] as Term),
    season: seasonOf(series),
  };
}

/** The series of one term of a taxonomy other than genres, in catalog order. */
export function seriesWithTerm(taxonomy: Exclude<Taxonomy, 'genres'>, slug: string, catalog: LiveCatalog = DEFAULT_CATALOG): Series[] {
  const key = ({ studio: 'studio', network: 'network', country: 'country', season: 'season' } as const)[taxonomy];
  return catalog.series.filter((series) => termsOf(series)[key].slug === slug);
}

/** Every term of a taxonomy other than genres that the site knows (an unknown slug is a 404). */
export function knownTerms(taxonomy: Exclude<Taxonomy, 'genres'>): readonly Term[] {
  if (taxonomy === 'studio') return [...STUDIOS, EXAMPLE_STUDIO, UTF8_STUDIO];
  if (taxonomy === 'network') return NETWORKS;
  if (taxonomy === 'country') return COUNTRIES;
  return SEASONS;
}

// ---- the weekly schedule ----

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;
/** The site prints times in WIB (UTC+7). */
const WIB_MS = 7 * HOUR_MS;

export interface ScheduleEntry {
  readonly series: Series;
  readonly day: Weekday;
  /** "at 10:33" while counting down, "Released" in the day after the release. */
  readonly timeText: string;
  /** Unix seconds of the next release; null once released. */
  readonly releaseAt: number | null;
  /** null: the site shows "??". */
  readonly nextEpisode: number | null;
}

/** Ongoing series air once a week, on a weekday and at a time fixed by their post id. */
export function schedule(catalog: LiveCatalog = DEFAULT_CATALOG): ScheduleEntry[] {
  const now = Date.parse(SITE_NOW);
  // Monday 00:00 WIB of the site's current week.
  const local = now + WIB_MS;
  const weekStart = local - (((new Date(local).getUTCDay() + 6) % 7) * DAY_MS + (local % DAY_MS)) - WIB_MS;
  return catalog.series
    .filter((series) => series.status === 'Ongoing')
    .map((series, index) => {
      const dayIndex = series.id % 7;
      const minutes = 8 * 60 + ((series.id * 37) % (14 * 60));
      let slot = weekStart + dayIndex * DAY_MS + minutes * 60_000;
      const released = slot <= now && now - slot < DAY_MS;
      if (slot <= now && !released) slot += WEEK_MS;
      const clock = new Date(slot + WIB_MS).toISOString().slice(11, 16);
      return {
        series,
        day: WEEKDAYS[dayIndex] as Weekday,
        timeText: released ? 'Released' : `at ${clock}`,
        releaseAt: released ? null : slot / 1000,
        nextEpisode: index % 5 === 4 || series.latestEpisode === null ? null : series.latestEpisode + 1,
      };
    });
}

// ---- the A–Z list ----

/** The site's `show` groups: `.` (titles starting with a sign), `0-9`, then A–Z. */
export function azGroupOf(title: string): string {
  const first = title.charAt(0).toUpperCase();
  if (/[A-Z]/.test(first)) return first;
  return /[0-9]/.test(first) ? '0-9' : '.';
}

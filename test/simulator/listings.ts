import { byNewest, byUpdate, LIST_PER_PAGE, paginate, type Page } from './catalog.js';
import { GENRES, SERIES, type Series, type Term } from './dataset.js';
import { azGroupOf, knownTerms, schedule, seriesWithTerm, WEEKDAYS, type ScheduleEntry, type Taxonomy, type Weekday } from './taxonomies.js';

/** What the completed, taxonomy, season, schedule and A–Z pages show; tests compute expected values from these. */

/** Genre, studio, network and country archives, and the A–Z list, show 10 cards a page. */
export const ARCHIVE_PER_PAGE = 10;

export function completed(page: number): Page<Series> {
  return paginate(SERIES.filter((series) => series.status === 'Completed').sort(byUpdate), page, LIST_PER_PAGE);
}

/** The term a taxonomy archive's slug names, or undefined (WordPress answers 404). */
export function findTerm(taxonomy: Taxonomy, slug: string): Term | undefined {
  const terms = taxonomy === 'genres' ? GENRES : knownTerms(taxonomy);
  return terms.find((term) => term.slug === slug);
}

/** A genre, studio, network or country archive: newest post first. */
export function termListing(taxonomy: Exclude<Taxonomy, 'season'>, slug: string, page: number): Page<Series> {
  const series =
    taxonomy === 'genres' ? SERIES.filter((item) => item.genres.some((genre) => genre.slug === slug)) : seriesWithTerm(taxonomy, slug);
  return paginate([...series].sort(byNewest), page, ARCHIVE_PER_PAGE);
}

/** A season page: every series of the season on one page, by title. */
export function seasonListing(slug: string): Series[] {
  return seriesWithTerm('season', slug).sort((a, b) => a.title.localeCompare(b.title, 'en'));
}

/** The schedule page's blocks, each weekday's entries by release time. */
export function scheduleByDay(): { day: Weekday; entries: ScheduleEntry[] }[] {
  const entries = schedule();
  const clock = (entry: ScheduleEntry) => (entry.releaseAt ?? 0) % 86_400;
  return WEEKDAYS.map((day) => ({
    day,
    entries: entries.filter((entry) => entry.day === day).sort((a, b) => clock(a) - clock(b) || byNewest(a.series, b.series)),
  }));
}

/** `/az-lists/?show=L`: series of one letter group (all when null), by title. */
export function azList(letter: string | null, page: number): Page<Series> {
  const series = SERIES.filter((item) => letter === null || azGroupOf(item.title) === letter);
  return paginate([...series].sort((a, b) => a.title.localeCompare(b.title, 'en')), page, ARCHIVE_PER_PAGE);
}

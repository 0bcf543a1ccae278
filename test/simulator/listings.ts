import { byNewest, byTitle, byUpdate, LIST_PER_PAGE, paginate, type Page } from './catalog.js';
import { GENRES, type Series, type Term } from './dataset.js';
import { DEFAULT_CATALOG, type LiveCatalog } from './liveCatalog.js';
import {
  azGroupOf,
  knownTerms,
  schedule,
  seriesWithTerm,
  WEEKDAYS,
  type ScheduleEntry,
  type Taxonomy,
  type Weekday,
} from './taxonomies.js';

/** What the completed, taxonomy, season, schedule and A–Z pages show; tests compute expected values from these. */

/** Genre, studio, network and country archives, and the A–Z list, show 10 cards a page. */
export const ARCHIVE_PER_PAGE = 10;

export function completed(page: number, catalog: LiveCatalog = DEFAULT_CATALOG): Page<Series> {
  const list = catalog.derived('completed', () => catalog.series.filter((series) => series.status === 'Completed').sort(byUpdate));
  return paginate(list, page, LIST_PER_PAGE);
}

/** The term a taxonomy archive's slug names, or undefined (WordPress answers 404). */
export function findTerm(taxonomy: Taxonomy, slug: string): Term | undefined {
  const terms = taxonomy === 'genres' ? GENRES : knownTerms(taxonomy);
  return terms.find((term) => term.slug === slug);
}

/** A genre, studio, network or country archive: newest post first. */
export function termListing(
  taxonomy: Exclude<Taxonomy, 'season'>,
  slug: string,
  page: number,
  catalog: LiveCatalog = DEFAULT_CATALOG,
): Page<Series> {
  const list = catalog.derived(`term:${taxonomy}:${slug}`, () => {
    const series =
      taxonomy === 'genres'
        ? catalog.series.filter((item) => item.genres.some((genre) => genre.slug === slug))
        : seriesWithTerm(taxonomy, slug, catalog);
    return [...series].sort(byNewest);
  });
  return paginate(list, page, ARCHIVE_PER_PAGE);
}

/** A season page: every series of the season on one page, by title. */
export function seasonListing(slug: string, catalog: LiveCatalog = DEFAULT_CATALOG): Series[] {
  return seriesWithTerm('season', slug, catalog).sort(byTitle);
}

/** The schedule page's blocks, each weekday's entries by release time. */
export function scheduleByDay(catalog: LiveCatalog = DEFAULT_CATALOG): { day: Weekday; entries: ScheduleEntry[] }[] {
  const entries = schedule(catalog);
  const clock = (entry: ScheduleEntry) => (entry.releaseAt ?? 0) % 86_400;
  return WEEKDAYS.map((day) => ({
    day,
    entries: entries.filter((entry) => entry.day === day).sort((a, b) => clock(a) - clock(b) || byNewest(a.series, b.series)),
  }));
}

/** `/az-lists/?show=L`: series of one letter group (all when null), by title. */
export function azList(letter: string | null, page: number, catalog: LiveCatalog = DEFAULT_CATALOG): Page<Series> {
  const list = catalog.derived(`az:${letter ?? ''}`, () =>
    catalog.series.filter((item) => letter === null || azGroupOf(item.title) === letter).sort(byTitle),
  );
  return paginate(list, page, ARCHIVE_PER_PAGE);
}

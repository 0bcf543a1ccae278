import { SITE_NOW, slugify, type Series } from './dataset.js';
import { generatedSeries } from './largeCatalog.js';
import type { LiveCatalog } from './liveCatalog.js';
import { createRandom } from './random.js';

/**
 * What happens on the site while the service runs: a series posted, a new episode, an edited series,
 * a series taken down. Each change is at once on every page (lists, A–Z, series and episode pages),
 * as WordPress renders them from the database; tests read the catalog for what to expect.
 */

/** Fields of a series that an edit may change; the post id and slug stay, as WordPress keeps them. */
type SeriesChanges = Partial<Omit<Series, 'id' | 'slug'>>;

export interface CatalogControls {
  /** Posts a new series, generated from the seed unless `fields` say otherwise (the slug follows the title); it tops the update order. */
  addSeries(fields?: SeriesChanges): Series;
  /**
   * The series lists one more episode, a week after its latest, and its post moves to the top of the
   * update-ordered list (`modifiedAt`, the page's `dateModified`). An upcoming series airs its first episode.
   */
  publishEpisode(slug: string): Series;
  /** Edits a series: like an edit in WordPress, its post moves to the top of the update-ordered list (unless `changes.modifiedAt` says when). */
  updateSeries(slug: string, changes: SeriesChanges): Series;
  /** Takes a series down: its page and episode pages answer 404 and no list shows it. */
  removeSeries(slug: string): void;
}

const WEEK_MS = 7 * 86_400_000;
const MINUTE_MS = 60_000;
const ID_STEP = 37;

export function createCatalogControls(catalog: LiveCatalog, seed: number): CatalogControls {
  const random = createRandom(seed);

  const existing = (slug: string): Series => {
    const series = catalog.find(slug);
    if (series === null) throw new Error(`the simulated site lists no series "${slug}"`);
    return series;
  };
  /** Later than every update the site shows, and not before the site's "now". */
  const nextMoment = (): number => Math.max(Date.parse(SITE_NOW), Date.parse(catalog.newestUpdate() || SITE_NOW) + MINUTE_MS);

  return {
    addSeries(fields = {}) {
      const id = catalog.series.reduce((max, item) => Math.max(max, item.id), 0) + ID_STEP;
      const taken = new Set(catalog.series.map((item) => item.slug));
      const generated = generatedSeries(random, id, new Date(nextMoment()).toISOString(), taken);
      const series = { ...generated, ...fields, id, slug: slugify(fields.title ?? generated.title) };
      // The simulator's slugs are WordPress's for Latin titles only.
      if (series.slug === '') throw new Error(`the title "${series.title}" gives no slug: it needs Latin letters or digits`);
      if (catalog.find(series.slug) !== null) throw new Error(`the simulated site already lists "${series.slug}"`);
      catalog.put(series);
      return series;
    },
    publishEpisode(slug) {
      const series = existing(slug);
      if (series.type === 'Movie') throw new Error(`"${slug}" is a movie: it has no next episode`);
      const aired = Date.parse(series.updatedAt) + WEEK_MS;
      const airing = series.status === 'Upcoming' ? { status: 'Ongoing' as const, sub: 'Sub' as const } : {};
      const published = {
        ...series,
        ...airing,
        latestEpisode: (series.latestEpisode ?? 0) + 1,
        updatedAt: new Date(aired).toISOString(),
        modifiedAt: new Date(Math.max(aired, nextMoment())).toISOString(),
      };
      catalog.put(published);
      return published;
    },
    updateSeries(slug, changes) {
      const updated = { ...existing(slug), modifiedAt: new Date(nextMoment()).toISOString(), ...changes };
      catalog.put(updated);
      return updated;
    },
    removeSeries(slug) {
      existing(slug);
      catalog.remove(slug);
    },
  };
}

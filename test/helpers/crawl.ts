import type { CatalogState } from '../../src/crawler/localCatalog.js';
import type { PageContext } from '../simulator/pages/context.js';
import { VARIANTS } from '../simulator/variant.js';
import type { Simulator } from '../simulator/server.js';
import { expectedSeries } from './seriesExpectations.js';
import type { TestStack } from './testApp.js';

// What the crawl tests share: waiting for the crawler's state, and the export entries the simulated
// site's pages and list cards make (computed from the simulator's data, never from our parsers).

export const crawlEnv = (intervalSeconds = 0): Record<string, string> => ({
  CRAWL_ENABLED: 'true',
  CRAWL_INTERVAL_S: String(intervalSeconds),
});

function contextOf(simulator: Simulator): PageContext {
  const { origin } = simulator;
  return { origin, host: new URL(origin).host, variant: VARIANTS[simulator.variant] };
}

/** Polls the crawler's state until `done` holds. */
export async function until(stack: TestStack, done: (state: CatalogState) => boolean, timeoutMs = 60_000): Promise<CatalogState> {
  const started = Date.now();
  for (;;) {
    const state = stack.app.localCatalog.state();
    if (done(state)) return state;
    if (Date.now() - started > timeoutMs) throw new Error(`the crawler did not get there: ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The first full pass has ended and every listed series has been read. */
export const firstPassDone = (state: CatalogState) => state.complete && state.pass === null && state.lastFullPassEndedAt !== null;

/** The export entries of the simulated site as it is now, without checkedAt and changedAt, by slug. */
export function expectedEntries(simulator: Simulator) {
  return [...simulator.catalog.series]
    .sort((a, b) => (a.slug < b.slug ? -1 : 1))
    .map((series) => {
      const { episodes, batches: _batches, ...detail } = expectedSeries(contextOf(simulator), series);
      return { ...detail, sub: series.sub, listedEpisodes: episodes.length };
    });
}

export const withoutTimes = (entries: Record<string, unknown>[]) =>
  entries.map(({ checkedAt: _checked, changedAt: _changed, ...entry }) => entry);

/** The simulator's requests for series pages (`/seri/{slug}/`), as slugs, oldest first. */
export function seriesPagesRead(simulator: Simulator, from = 0): string[] {
  return simulator.hits
    .slice(from)
    .map((hit) => /^\/seri\/([^/?]+)\/$/.exec(hit.path)?.[1])
    .filter((slug): slug is string => slug !== undefined)
    .map((slug) => decodeURIComponent(slug));
}

/** The simulator's requests for the update-ordered list, as page numbers. */
export function listPagesRead(simulator: Simulator, from = 0): number[] {
  return simulator.hits
    .slice(from)
    .filter((hit) => hit.path.startsWith('/seri/?'))
    .map((hit) => Number(new URLSearchParams(hit.path.slice('/seri/?'.length)).get('page')));
}

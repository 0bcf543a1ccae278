import { setTimeout as sleep } from 'node:timers/promises';
import { startSimulator, type Simulator } from '../../simulator/server.js';
import { metric, startService, type ServiceProcess } from '../processes.js';
import { NO_QUOTA } from './settings.js';

/** The size of the local catalog the crawl and title-search sections measure: the real site's and more. */
export const CATALOG_SERIES = Number(process.env.BENCH_CRAWL_SERIES ?? 2000);
/** The crawler with no interval between its requests. */
export const CRAWL = { CRAWL_ENABLED: 'true', CRAWL_INTERVAL_S: '0' };

/** A service that has crawled the whole catalog once, and what its first full pass took. */
export interface CrawledCatalog {
  simulator: Simulator;
  service: ServiceProcess;
  /** From the service's start until its first full pass ended. */
  passSeconds: number;
  /** What ran beside the pass, if anything did: its time is then not the crawler's alone. */
  beside: string | undefined;
  /** The site's series pages and list pages asked until then, and its other requests. */
  pass: { seriesPages: number; listPages: number; others: number };
}

async function untilPassEnds(service: ServiceProcess): Promise<void> {
  while ((await metric(service, 'catalog_last_full_pass_end_seconds')) === 0) await sleep(250);
}

async function crawl(beside: string | undefined): Promise<CrawledCatalog> {
  const simulator = await startSimulator({ catalogSize: CATALOG_SERIES, latencyMs: 0 });
  const service = await startService({ ...NO_QUOTA, ...CRAWL, UPSTREAM_BASE_URLS: simulator.origin });
  const started = performance.now();
  await untilPassEnds(service);
  const passSeconds = (performance.now() - started) / 1000;
  const seriesPages = simulator.hits.filter((hit) => /^\/seri\/[^/?]+\/$/.test(hit.path)).length;
  const listPages = simulator.hits.filter((hit) => hit.path.startsWith('/seri/?')).length;
  return {
    simulator,
    service,
    passSeconds,
    beside,
    pass: { seriesPages, listPages, others: simulator.hits.length - seriesPages - listPages },
  };
}

let crawled: Promise<CrawledCatalog> | undefined;

/**
 * The crawled catalog, crawled by the first section of the run that asks (CATALOG_SERIES series from
 * the simulator, no interval) and shared with the sections after it: one crawl of 2,000 series
 * serves the crawler's figures and the title search alike. `beside` names what runs meanwhile, when
 * the run starts the crawl ahead of the sections that read it.
 */
export function crawledCatalog(beside?: string): Promise<CrawledCatalog> {
  crawled ??= crawl(beside);
  return crawled;
}

/** The figure of the first full pass: how long it took, and beside what. */
export function passFigure({ passSeconds, beside }: CrawledCatalog): { measure: string; value: string } {
  return {
    measure: `first full pass of ${CATALOG_SERIES.toLocaleString('en')} series (no interval)${beside === undefined ? '' : `, beside ${beside}`}`,
    value: `${passSeconds.toFixed(1)} s (${(CATALOG_SERIES / passSeconds).toFixed(0)} series/s)`,
  };
}

/** Stops the crawled catalog's service and simulator, if a section started them. */
export async function stopCrawledCatalog(): Promise<void> {
  if (crawled === undefined) return;
  const { service, simulator } = await crawled;
  crawled = undefined;
  await Promise.all([service.stop(), simulator.close()]);
}

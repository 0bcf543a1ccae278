import { Counter, Gauge, type Registry } from 'prom-client';
import type { StepResult } from './crawler.js';
import type { CatalogState } from './localCatalog.js';

const seconds = (iso: string | null) => (iso === null ? 0 : Date.parse(iso) / 1000);

/**
 * The crawler's progress in /metrics: gauges read from the local catalog's state when scraped, and
 * a counter of the crawler's steps. Returns what the crawler calls after each step.
 */
export function registerCrawlMetrics(registry: Registry, state: () => CatalogState): (kind: 'list' | 'series', result: StepResult) => void {
  const registers = [registry];
  const gauge = (name: string, help: string, read: (current: CatalogState) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read(state()));
      },
    });
  gauge('catalog_series_listed', 'Series the site lists, as the crawler last counted them', (current) => current.listed);
  gauge('catalog_series_read', 'Listed series read (in the running full pass; else ever)', (current) => current.read);
  gauge('catalog_series_held', 'Series the local catalog holds', (current) => current.held);
  gauge('catalog_series_removed', 'Series found gone from the site', (current) => current.removed);
  gauge('catalog_complete', '1 once every listed series has been read', (current) => Number(current.complete));
  gauge('catalog_crawling', '1 on the instance that crawls', (current) => Number(current.crawlingHere));
  gauge('catalog_last_full_pass_end_seconds', 'When the last full pass ended (Unix seconds; 0 before the first)', (current) =>
    seconds(current.lastFullPassEndedAt),
  );
  gauge('catalog_next_pass_seconds', 'When the next pass is due (Unix seconds; 0 while one runs or the crawler is off)', (current) =>
    seconds(current.nextPassAt),
  );
  const steps = new Counter({
    name: 'catalog_crawl_steps_total',
    help: "The crawler's upstream reads, by what it read (list page or series page) and how it went",
    labelNames: ['kind', 'result'] as const,
    registers,
  });
  return (kind, result) => steps.inc({ kind, result });
}

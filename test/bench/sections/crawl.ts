import autocannon from 'autocannon';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSimulator, type Simulator } from '../../simulator/server.js';
import { againstBare, emptyTally, loadRound, tallyFigures } from '../loadRounds.js';
import { startService, startSimulatorProcess, type ServiceProcess } from '../processes.js';
import type { BenchReport } from '../report.js';
import { HIT_PATH, LOAD_SECONDS, NO_QUOTA } from './settings.js';

const SERIES = Number(process.env.BENCH_CRAWL_SERIES ?? 2000);
/** `npm start`'s --max-old-space-size. */
const HEAP_BOUND_MB = 160;
const EXPORT_ROUNDS = 2;
/** The simulator's latency while hits are measured during a pass: the pass then lasts long enough to measure. */
const PASS_LATENCY_MS = 20;

const CRAWL = { CRAWL_ENABLED: 'true', CRAWL_INTERVAL_S: '0' };

async function metric(service: ServiceProcess, name: string): Promise<number> {
  const text = await (await fetch(`${service.origin}/metrics`)).text();
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return match === null ? Number.NaN : Number(match[1]);
}

async function untilPassEnds(service: ServiceProcess): Promise<void> {
  while ((await metric(service, 'catalog_last_full_pass_end_seconds')) === 0) await sleep(250);
}

const seriesPages = (simulator: Simulator) => simulator.hits.filter((hit) => /^\/seri\/[^/?]+\/$/.test(hit.path)).length;
const listPages = (simulator: Simulator) => simulator.hits.filter((hit) => hit.path.startsWith('/seri/?')).length;

/**
 * The crawler and the export at the size of the real site and more: a full pass of SERIES series
 * with no interval (its time, and upstream requests per series), the heap once the catalog holds
 * them all, the export against a bare node:http server sending the same bytes, and cached hits of
 * other clients during a pass against the same hits once it is over.
 */
export async function crawlSection(report: BenchReport): Promise<void> {
  report.section(`the crawler and the export: ${SERIES.toLocaleString('en')} series, CRAWL_INTERVAL_S=0`);
  const simulator = await startSimulator({ catalogSize: SERIES, latencyMs: 0 });
  const service = await startService({ ...NO_QUOTA, ...CRAWL, UPSTREAM_BASE_URLS: simulator.origin });
  const started = performance.now();
  await untilPassEnds(service);
  const seconds = (performance.now() - started) / 1000;
  const [pages, lists] = [seriesPages(simulator), listPages(simulator)];
  report.figure(
    `full pass of ${SERIES.toLocaleString('en')} series`,
    `${seconds.toFixed(1)} s (${(SERIES / seconds).toFixed(0)} series/s)`,
  );
  // Anything else the site was asked meanwhile is not the crawler's (the status page's probe of the home page).
  const others = simulator.hits.length - pages - lists;
  report.goal(
    "the crawler's upstream requests in a full pass, per series",
    `${((pages + lists) / SERIES).toFixed(3)} (${pages} series pages + ${lists} list pages; ${others} other request${others === 1 ? '' : 's'}, the status probe's)`,
    `≤ 1 series page per series + the list pages (${Math.ceil(SERIES / 20)})`,
    pages <= SERIES && lists <= Math.ceil(SERIES / 20),
  );
  const heapMB = (await metric(service, 'nodejs_heap_size_used_bytes')) / 1024 / 1024;
  report.goal(
    `heap used with ${SERIES.toLocaleString('en')} series held`,
    `${heapMB.toFixed(0)} MB (RSS ${service.rssMB()} MB)`,
    `≤ ${HEAP_BOUND_MB} MB (the service's bound)`,
    heapMB <= HEAP_BOUND_MB,
  );

  const {
    body,
    ours: oursTally,
    bare: bareTally,
  } = await againstBare({ url: `${service.origin}/export/catalog.json`, pid: service.pid }, LOAD_SECONDS, EXPORT_ROUNDS, {
    warmUpSeconds: 2,
    headers: { 'Accept-Encoding': 'identity' },
  });
  const [ours, baseline] = [tallyFigures(oursTally), tallyFigures(bareTally)];
  const ratio = ours.perSecond / baseline.perSecond;
  report.goal(
    `export req/s against bare, ${(body.length / 1024 / 1024).toFixed(1)} MB body`,
    `${ratio.toFixed(2)} (${ours.perSecond.toFixed(1)} vs ${baseline.perSecond.toFixed(1)})`,
    'ratio ≥ 0.75',
    ratio >= 0.75,
  );
  await Promise.all([service.stop(), simulator.close()]);

  // Cached hits of other clients while a pass runs, against the same hits once it is over.
  // The site in a process of its own: the pages it renders for the crawler must not slow the load generator here.
  const passSimulator = await startSimulatorProcess(['--catalog-size', String(SERIES), '--latency', String(PASS_LATENCY_MS)]);
  const crawling = await startService({ ...NO_QUOTA, ...CRAWL, UPSTREAM_BASE_URLS: passSimulator.origin });
  const hitUrl = crawling.origin + HIT_PATH;
  await fetch(hitUrl);
  // Warm (the hit path compiled and optimised), and measured once the pass reads series pages.
  await autocannon({ url: hitUrl, connections: 50, duration: 3 });
  while ((await metric(crawling, 'catalog_series_read')) < 20) await sleep(100);
  const [during, after] = [emptyTally(), emptyTally()];
  const readBefore = await metric(crawling, 'catalog_series_read');
  await loadRound(during, hitUrl, LOAD_SECONDS, crawling.pid);
  const stillCrawling = (await metric(crawling, 'catalog_last_full_pass_end_seconds')) === 0;
  const readDuring = (await metric(crawling, 'catalog_series_read')) - readBefore;
  await untilPassEnds(crawling);
  await fetch(hitUrl);
  await loadRound(after, hitUrl, LOAD_SECONDS, crawling.pid);
  const [withPass, withoutPass] = [tallyFigures(during), tallyFigures(after)];
  const kept = withPass.perSecond / withoutPass.perSecond;
  report.goal(
    'cached hits during a full pass against after it',
    `${kept.toFixed(2)} (${withPass.perSecond.toFixed(0)} vs ${withoutPass.perSecond.toFixed(0)} req/s; the service's CPU per hit, its crawler's included, ${withPass.cpuMicroseconds.toFixed(0)} vs ${withoutPass.cpuMicroseconds.toFixed(0)} µs; ${readDuring} series pages read meanwhile${stillCrawling ? '' : ', PASS ENDED DURING THE ROUND'})`,
    'ratio ≥ 0.9',
    kept >= 0.9 && stillCrawling,
  );
  await Promise.all([crawling.stop(), passSimulator.stop()]);
}

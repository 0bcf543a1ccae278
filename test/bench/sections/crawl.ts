import autocannon from 'autocannon';
import { setTimeout as sleep } from 'node:timers/promises';
import { againstBare, emptyTally, loadRound, tallyFigures } from '../loadRounds.js';
import { metric, startService, startSimulatorProcess } from '../processes.js';
import { median, roundsText, type BenchReport } from '../report.js';
import { CATALOG_SERIES, CRAWL, crawledCatalog, passFigure } from './crawledCatalog.js';
import { HIT_PATH, LOAD_SECONDS, NO_QUOTA, WARM_UP_SECONDS } from './settings.js';

/** `npm start`'s --max-old-space-size. */
const HEAP_BOUND_MB = 160;
const EXPORT_ROUNDS = 2;
/** Rounds of hits during a pass, each followed by one on the service whose pass is over. */
const PASS_ROUNDS = 3;
/** The simulator's latency while hits are measured during a pass: the pass then lasts long enough to measure. */
const PASS_LATENCY_MS = 20;

/**
 * The crawler and the export at the size of the real site and more: a full pass of CATALOG_SERIES
 * series with no interval (its time, and upstream requests per series), the heap once the catalog
 * holds them all, the export against a bare node:http server sending the same bytes, and cached hits
 * of other clients on a service during its pass against the same hits on the service whose pass is over.
 */
export async function crawlSection(report: BenchReport): Promise<void> {
  report.section(`the crawler and the export: ${CATALOG_SERIES.toLocaleString('en')} series, CRAWL_INTERVAL_S=0`);
  const catalog = await crawledCatalog();
  const { service, pass } = catalog;
  const { measure, value } = passFigure(catalog);
  report.figure(measure, value);
  // Anything else the site was asked meanwhile is not the crawler's (the status page's probe of the home page).
  report.goal(
    "the crawler's upstream requests in a full pass, per series",
    `${((pass.seriesPages + pass.listPages) / CATALOG_SERIES).toFixed(3)} (${pass.seriesPages} series pages + ${pass.listPages} list pages; ${pass.others} other request${pass.others === 1 ? '' : 's'}, the status probe's)`,
    `≤ 1 series page per series + the list pages (${Math.ceil(CATALOG_SERIES / 20)})`,
    pass.seriesPages <= CATALOG_SERIES && pass.listPages <= Math.ceil(CATALOG_SERIES / 20),
  );
  const heapMB = (await metric(service, 'nodejs_heap_size_used_bytes')) / 1024 / 1024;
  report.goal(
    `heap used with ${CATALOG_SERIES.toLocaleString('en')} series held`,
    `${heapMB.toFixed(0)} MB (RSS ${service.rssMB()} MB)`,
    `≤ ${HEAP_BOUND_MB} MB (the service's bound)`,
    heapMB <= HEAP_BOUND_MB,
  );

  const {
    body,
    ours: oursTally,
    bare: bareTally,
  } = await againstBare({ url: `${service.origin}/export/catalog.json`, pid: service.pid }, LOAD_SECONDS, EXPORT_ROUNDS, {
    warmUpSeconds: WARM_UP_SECONDS,
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

  // Cached hits of other clients while a pass runs, against the same hits on the service above,
  // whose pass is over, in alternating rounds: whatever else the shared machine runs weighs on both
  // alike. While the service above is measured, the crawling service's site is held (stopped), so
  // that its crawler waits on a page, using no CPU, instead of taking the CPU from the hits measured;
  // a round is far shorter than the upstream timeout, so the page it waits for arrives late, not
  // failed. The site in a process of its own: the pages it renders for the crawler must not slow
  // the load generator here.
  const passSimulator = await startSimulatorProcess(['--catalog-size', String(CATALOG_SERIES), '--latency', String(PASS_LATENCY_MS)]);
  const crawling = await startService({ ...NO_QUOTA, ...CRAWL, UPSTREAM_BASE_URLS: passSimulator.origin });
  const [duringUrl, afterUrl] = [crawling.origin + HIT_PATH, service.origin + HIT_PATH];
  const [during, after] = [emptyTally(), emptyTally()];
  let readDuring = 0;
  let stillCrawling: boolean;
  try {
    // Both warm (the hit path compiled and optimised), and measured once the pass reads series pages.
    for (const url of [duringUrl, afterUrl]) {
      await fetch(url);
      await autocannon({ url, connections: 50, duration: WARM_UP_SECONDS });
    }
    while ((await metric(crawling, 'catalog_series_read')) < 20) await sleep(100);
    for (let round = 0; round < PASS_ROUNDS; round++) {
      const readBefore = await metric(crawling, 'catalog_series_read');
      await loadRound(during, duringUrl, LOAD_SECONDS / PASS_ROUNDS, crawling.pid);
      readDuring += (await metric(crawling, 'catalog_series_read')) - readBefore;
      passSimulator.hold();
      try {
        await loadRound(after, afterUrl, LOAD_SECONDS / PASS_ROUNDS, service.pid);
      } finally {
        passSimulator.release();
      }
    }
    stillCrawling = (await metric(crawling, 'catalog_last_full_pass_end_seconds')) === 0;
  } finally {
    await Promise.all([crawling.stop(), passSimulator.stop()]);
  }
  const ratios = during.perSecond.map((perSecond, round) => perSecond / after.perSecond[round]!);
  const kept = median(ratios);
  const [withPass, withoutPass] = [tallyFigures(during), tallyFigures(after)];
  report.goal(
    'cached hits during a full pass against on a service whose pass is over, median round',
    `${kept.toFixed(2)} (${withPass.perSecond.toFixed(0)} vs ${withoutPass.perSecond.toFixed(0)} req/s over all rounds; ${roundsText(ratios, 2)}; the service's CPU per hit, its crawler's included, ${withPass.cpuMicroseconds.toFixed(0)} vs ${withoutPass.cpuMicroseconds.toFixed(0)} µs; ${readDuring} series pages read meanwhile${stillCrawling ? '' : ', PASS ENDED DURING THE ROUNDS'})`,
    'ratio ≥ 0.9',
    kept >= 0.9 && stillCrawling,
  );
}

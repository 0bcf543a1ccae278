import { load as cheerioLoad } from 'cheerio';
import { startSimulator } from '../../simulator/server.js';
import { startService } from '../processes.js';
import { median, medianTime, timedGet, type BenchReport } from '../report.js';
import { LATENCY_MS, NO_QUOTA } from './settings.js';

/** The service's own time on a miss may be at most this share of cheerio's default `load` of the same pages. */
const MISS_RATIO_GOAL = 0.5;

// Misses of other keys that run the same code (the search, listing and card parsers, the service,
// the answer's serialization): a long-running service has compiled its hot paths, while its first
// requests run in V8's interpreter. The simulator has no pages beyond those measured for the
// home, ongoing, popular and new-movie lists, so their siblings stand in.
const WARM_UP_PATHS = [
  ...['b', 'c', 'd', 'f', 'g', 'spirit', 'moon', 'blade', 'sky', 'star'].map((q) => `/catalog/search?q=${q}`),
  ...['ongoing', 'completed'].flatMap((status) =>
    ['title', 'update', 'latest', 'popular'].map((order) => `/catalog/series?status=${status}&order=${order}`),
  ),
  '/catalog/series?type=movie',
  '/catalog/completed-series',
  '/catalog/completed-series?page=2',
  '/catalog/networks/bilibili',
  '/catalog/genres/action',
  '/catalog/genres/fantasy',
];
const MISS_PATHS = [
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((page) => `/catalog/home?page=${page}`),
  ...['a', 'e', 'i', 'o', 'u', 'soul', 'dragon', 'sword', 'immortal', 'martial'].map((q) => `/catalog/search?q=${q}`),
  ...[1, 2, 3].map((page) => `/catalog/ongoing-series?page=${page}`),
  ...[1, 2, 3, 4, 5].map((page) => `/catalog/popular-series?page=${page}`),
  '/catalog/new-movie?page=1',
  '/catalog/new-movie?page=2',
];

/**
 * The service's own time on a miss (its logged total minus the upstream fetch: parse on a worker
 * thread, serialization, cache, log), after warming up on other keys, against cheerio's default
 * `load` of the same upstream pages in this process.
 */
export async function missSection(report: BenchReport): Promise<void> {
  report.section("the service's own time on a miss (total minus the upstream fetch) against cheerio's default load of the same pages");
  const simulator = await startSimulator({ latencyMs: LATENCY_MS });
  const service = await startService({ ...NO_QUOTA, UPSTREAM_BASE_URLS: simulator.origin });
  // The warm-up's misses at once: they compile the code, and none of them is measured. The measured
  // ones one at a time, so that none waits for another's parse.
  await Promise.all(WARM_UP_PATHS.map((path) => timedGet(service.origin + path)));
  for (const path of MISS_PATHS) await timedGet(service.origin + path);
  // The log is written asynchronously; give the last lines a moment to land.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const measured = new Set(MISS_PATHS);
  const misses = service
    .logs()
    .filter((entry) => entry.msg === 'request' && entry.upstream !== undefined && measured.has(entry.url as string))
    .map((entry) => ({
      overhead: (entry.durationMs as number) - (entry.upstream as { durationMs: number }).durationMs,
      page: (entry.upstream as { url: string }).url,
    }));
  const overhead = median(misses.map((miss) => miss.overhead));
  await simulator.close();
  // The same pages, from a simulator without latency.
  const pages = await startSimulator({ latencyMs: 0 });
  const references: number[] = [];
  for (const { page } of misses) {
    const html = await (await fetch(new URL(new URL(page).pathname + new URL(page).search, pages.origin))).text();
    references.push(medianTime(() => cheerioLoad(html), 5, 2));
  }
  const reference = median(references);
  const ratio = overhead / reference;
  report.goal(
    `miss overhead against cheerio load of the same pages (medians of ${misses.length} misses)`,
    `${ratio.toFixed(2)} (${overhead.toFixed(1)} vs ${reference.toFixed(1)} ms)`,
    `≤ ${MISS_RATIO_GOAL}`,
    ratio <= MISS_RATIO_GOAL,
  );
  await Promise.all([service.stop(), pages.close()]);
}

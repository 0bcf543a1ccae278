import { Agent, get } from 'node:http';
import { startSimulator } from '../../simulator/server.js';
import { figureIn, metric, metricsOf, startService, type ServiceProcess } from '../processes.js';
import type { BenchReport } from '../report.js';
import { NO_QUOTA } from './settings.js';

const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 10_000);
/**
 * The first of those searches, after which RSS is read as the service's at start: by then its parse
 * thread's heap has grown to its working size (its young generation, THREAD_YOUNG_HEAP_MB in
 * src/catalog/pageParser.ts), which the first few hundred misses do whatever the answer cache holds.
 */
const WARM_SEARCHES = Math.min(500, SEARCHES);
/** The most distinct misses made while waiting for the answer cache to be full. */
const MAX_SEARCHES = Number(process.env.BENCH_MANY_SEARCHES ?? 100_000);
/** RSS with every search cached may be at most this multiple of the service's RSS at start. */
const RSS_RATIO_GOAL = 1.5;
/** RSS past the point where the answer cache is full may be at most this multiple of RSS after SEARCHES: flat once the caches are full. */
const RSS_FLAT_GOAL = 1.25;
/** Searches sent at once while the section searches. */
const CONCURRENT_SEARCHES = 8;
/** Searches between two looks at whether the answer cache is full yet. */
const FILL_STEP = 1_000;
/**
 * Distinct misses made once the answer cache is full, before RSS is read again: each of these misses
 * evicts an answer, so memory that grows with them is not the cache's.
 */
const PAST_FULL = 5_000;

/**
 * A search, answered 200 (a search that finds nothing is answered so too). Through node:http on
 * kept-alive connections rather than fetch: the section's time is its misses' CPU, the service's
 * and this process's, and fetch costs this process more per request than node:http.
 */
function search(agent: Agent, url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (response) => {
      response.resume();
      response.on('error', reject);
      response.on('end', () =>
        response.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${response.statusCode} while the cache filled`)),
      );
    }).on('error', reject);
  });
}

/**
 * The main thread's JS heap and external memory, and the answer cache's fill against its bound,
 * from the service's own /metrics: RSS that grows while the cache fills is the bound at work.
 */
async function heapFigures(service: ServiceProcess): Promise<string> {
  const text = await metricsOf(service);
  const value = (name: string) => figureIn(text, name);
  const mb = (name: string) => Math.round(value(name) / 1024 / 1024);
  return (
    `heap ${mb('nodejs_heap_size_used_bytes')} MB, external ${mb('nodejs_external_memory_bytes')} MB, ` +
    `answer cache ${value('answer_cache_entries').toLocaleString('en')} answers = ${mb('answer_cache_bytes')} MB`
  );
}

/**
 * The service's RSS once SEARCHES distinct searches are cached, against its RSS at start; then once
 * the answer cache is full and PAST_FULL distinct misses later, against the first figure and against
 * RSS when the answer cache was first full.
 */
export async function memorySection(report: BenchReport): Promise<void> {
  report.section(
    `memory: RSS after ${SEARCHES.toLocaleString('en')} distinct searches and ${PAST_FULL.toLocaleString('en')} past a full answer cache, against RSS at start`,
  );
  const simulator = await startSimulator({ latencyMs: 0 });
  const service = await startService({ ...NO_QUOTA, UPSTREAM_BASE_URLS: simulator.origin });
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENT_SEARCHES });
  let next = 0;
  const searchUpTo = (count: number) => {
    const client = async () => {
      while (next < count) await search(agent, `${service.origin}/catalog/search?q=${encodeURIComponent(`series ${next++}`)}`);
    };
    return Promise.all(Array.from({ length: CONCURRENT_SEARCHES }, client));
  };
  // The start includes what every miss loads: the parse thread, its heap at its working size.
  await searchUpTo(WARM_SEARCHES);
  const before = service.rssMB();
  await searchUpTo(SEARCHES);
  const first = await fetch(`${service.origin}/catalog/search?q=series%200`);
  const rss = service.rssMB();
  const ratio = rss / before;
  report.goal(
    `RSS after ${SEARCHES.toLocaleString('en')} cached searches against RSS at start, read after the first ${WARM_SEARCHES.toLocaleString('en')} (first search still ${first.headers.get('x-cache')})`,
    `${ratio.toFixed(2)} (${rss} vs ${before} MB)`,
    `≤ ${RSS_RATIO_GOAL}`,
    ratio <= RSS_RATIO_GOAL,
  );
  const figuresAfterFew = await heapFigures(service);

  // On in steps, to find where the answer cache is full (it holds fewer answers than searches
  // made): growth before that point is the cache's bound at work, growth after it is not.
  let full: { searches: number; rss: number } | undefined;
  let searched = SEARCHES;
  while (searched < MAX_SEARCHES && (full === undefined || searched < full.searches + PAST_FULL)) {
    searched = Math.min(full === undefined ? searched + FILL_STEP : full.searches + PAST_FULL, MAX_SEARCHES);
    await searchUpTo(searched);
    if (full === undefined && (await metric(service, 'answer_cache_entries')) < searched)
      full = { searches: searched, rss: service.rssMB() };
  }
  const rssAfterMany = service.rssMB();
  const flat = rssAfterMany / rss;
  report.goal(
    `RSS after ${searched.toLocaleString('en')} distinct misses${full === undefined ? '' : ` (the answer cache full after ${full.searches.toLocaleString('en')})`} against after ${SEARCHES.toLocaleString('en')}`,
    `${flat.toFixed(2)} (${rssAfterMany} vs ${rss} MB; ${await heapFigures(service)} vs ${figuresAfterFew})`,
    `≤ ${RSS_FLAT_GOAL}`,
    flat <= RSS_FLAT_GOAL,
  );
  report.figure(
    `RSS after ${searched.toLocaleString('en')} distinct misses against once the answer cache was full`,
    full === undefined
      ? `the cache was not full before ${searched.toLocaleString('en')}`
      : `${(rssAfterMany / full.rss).toFixed(2)} (${rssAfterMany} vs ${full.rss} MB)`,
  );
  agent.destroy();
  await Promise.all([service.stop(), simulator.close()]);
}

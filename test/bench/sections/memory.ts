import { startSimulator } from '../../simulator/server.js';
import { startService } from '../processes.js';
import { timedGet, type BenchReport } from '../report.js';
import { NO_QUOTA } from './settings.js';

const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 10_000);
/** RSS with every search cached may be at most this multiple of the service's RSS at start. */
const RSS_RATIO_GOAL = 1.5;

/** The service's RSS once SEARCHES distinct searches are cached, against its RSS at start. */
export async function memorySection(report: BenchReport): Promise<void> {
  report.section(`memory: RSS after ${SEARCHES.toLocaleString('en')} distinct searches are cached, against RSS at start`);
  const simulator = await startSimulator({ latencyMs: 0 });
  const service = await startService({ ...NO_QUOTA, UPSTREAM_BASE_URLS: simulator.origin });
  // One miss first, so that the start includes what every miss loads (the parse threads).
  await timedGet(`${service.origin}/catalog/search?q=warm`);
  const before = service.rssMB();
  let next = 0;
  const client = async () => {
    while (next < SEARCHES) await timedGet(`${service.origin}/catalog/search?q=${encodeURIComponent(`series ${next++}`)}`);
  };
  await Promise.all(Array.from({ length: 8 }, client));
  const first = await fetch(`${service.origin}/catalog/search?q=series%200`);
  const rss = service.rssMB();
  const ratio = rss / before;
  report.goal(
    `RSS after ${SEARCHES.toLocaleString('en')} cached searches against RSS at start (first search still ${first.headers.get('x-cache')})`,
    `${ratio.toFixed(2)} (${rss} vs ${before} MB)`,
    `≤ ${RSS_RATIO_GOAL}`,
    ratio <= RSS_RATIO_GOAL,
  );
  await Promise.all([service.stop(), simulator.close()]);
}

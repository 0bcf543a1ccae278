import { Worker } from 'node:worker_threads';
import { SERIES } from '../../simulator/dataset.js';
import { startSimulator } from '../../simulator/server.js';
import { startService } from '../processes.js';
import { median, percentile, timedGet, type BenchReport } from '../report.js';
import { LATENCY_MS, NO_QUOTA } from './settings.js';

const PROBES = 200;
/** Pathological pages asked for, one after another: each holds a parse thread to the parse deadline (2 s). */
const PATHOLOGICAL_PAGES = 4;
/** A page held to the parse deadline may add at most this much to the usual time of /health and of a cached hit. */
const ALLOWANCE_MS = 5;

// The probes run on a thread of their own: the simulator shares this process's event loop, and
// rendering and compressing a 1 MB page there would otherwise delay the probes, not the service.
const PROBE_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
let stop = false;
parentPort.on('message', () => { stop = true; });
(async () => {
  const times = workerData.urls.map(() => []);
  for (let round = 0; workerData.rounds > 0 ? round < workerData.rounds : !stop; round++) {
    for (const [index, url] of workerData.urls.entries()) {
      const started = performance.now();
      await (await fetch(url)).arrayBuffer();
      times[index].push(performance.now() - started);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  parentPort.postMessage(times);
})();`;

/** Sequential GETs of each path in turn, timed on their own thread: PROBES rounds, or until `until` settles. */
async function probe(urls: readonly string[], until?: Promise<unknown>): Promise<number[][]> {
  const thread = new Worker(PROBE_THREAD, { eval: true, workerData: { urls, rounds: until === undefined ? PROBES : 0 } });
  const times = new Promise<number[][]>((resolve) => thread.once('message', resolve));
  void until?.finally(() => thread.postMessage('stop'));
  const result = await times;
  await thread.terminate();
  return result;
}

/**
 * Pages that no parser reads in bounded time (200,000 nested elements, 976 KB) requested one after
 * another, each a new key: /health and a cached hit beside them against the same two alone.
 */
export async function badPagesSection(report: BenchReport): Promise<void> {
  report.section('/health and a cached hit while pages of 200,000 nested elements are requested, against the same alone');
  const simulator = await startSimulator({ latencyMs: LATENCY_MS });
  const service = await startService({ ...NO_QUOTA, UPSTREAM_BASE_URLS: simulator.origin });
  const watched = [`${service.origin}/health`, `${service.origin}/catalog/genres`];
  await timedGet(watched[1]!);
  // A first round compiles both paths; the second is the reference.
  await probe(watched);
  const alone = await probe(watched);

  simulator.setFaults([{ kind: 'pathological', shape: 'deep-nesting', pathPrefix: '/seri/' }]);
  const errors: Array<{ status: number; ms: number }> = [];
  const requests = (async () => {
    for (const series of SERIES.slice(0, PATHOLOGICAL_PAGES)) {
      const started = performance.now();
      const response = await fetch(`${service.origin}/catalog/series/${series.slug}`);
      await response.arrayBuffer();
      errors.push({ status: response.status, ms: performance.now() - started });
    }
  })();
  const beside = await probe(watched, requests);
  await requests;

  for (const [index, name] of ['/health', 'cached hit'].entries()) {
    const [before, during] = [alone[index]!, beside[index]!].map((times) => ({ p50: median(times), p99: percentile(times, 0.99) }));
    // The usual time is the median: a p99 on this shared machine moves with its neighbours as much.
    report.goal(
      `${name} p50 beside pathological pages minus alone`,
      `${(during!.p50 - before!.p50).toFixed(1)} ms (p50 ${during!.p50.toFixed(1)} vs ${before!.p50.toFixed(1)} ms, p99 ${during!.p99.toFixed(1)} vs ${before!.p99.toFixed(1)} ms; ${beside[index]!.length} probes beside)`,
      `≤ ${ALLOWANCE_MS} ms`,
      during!.p50 - before!.p50 <= ALLOWANCE_MS,
    );
  }
  const statuses = [...new Set(errors.map((error) => error.status))].join(', ');
  report.figure(
    'a pathological page until its typed error (fetch included)',
    `median ${median(errors.map((error) => error.ms)).toFixed(0)} ms over ${errors.length} pages, status ${statuses}`,
  );
  await Promise.all([service.stop(), simulator.close()]);
}

import { startSimulator } from '../../simulator/server.js';
import { startService } from '../processes.js';
import { percentile, timedGet, type BenchReport } from '../report.js';
import { NO_QUOTA } from './settings.js';

const MISSES = Number(process.env.BENCH_PARSE_QUEUE_MISSES ?? 1000);
const CONCURRENCY = 200;

/**
 * A burst of distinct misses against a fast site, so that the parse threads, not the site, are what
 * runs short: every answer is a 200 or an honest 503 SERVICE_BUSY, never a 504 that blames the site.
 */
export async function parseQueueSection(report: BenchReport): Promise<void> {
  report.section(
    `parse queue: ${MISSES.toLocaleString('en')} distinct misses, ${CONCURRENCY} at once, against a site that answers at once`,
  );
  const simulator = await startSimulator({ latencyMs: 0 });
  const service = await startService({ ...NO_QUOTA, UPSTREAM_BASE_URLS: simulator.origin });
  await timedGet(`${service.origin}/catalog/search?q=warm`);
  const outcomes = new Map<string, number>();
  const times: number[] = [];
  let next = 0;
  const client = async () => {
    while (next < MISSES) {
      const started = performance.now();
      const response = await fetch(`${service.origin}/catalog/search?q=${encodeURIComponent(`queue ${next++}`)}`);
      const body = (await response.json()) as { error?: { code?: string } };
      times.push(performance.now() - started);
      const outcome = response.status === 200 ? '200' : `${response.status} ${body.error?.code ?? '?'}`;
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  const seconds = (performance.now() - started) / 1000;
  const succeeded = outcomes.get('200') ?? 0;
  const busy = outcomes.get('503 SERVICE_BUSY') ?? 0;
  const others = [...outcomes].filter(([outcome]) => outcome !== '200' && outcome !== '503 SERVICE_BUSY');
  report.figure('parse queue: misses answered 200', `${succeeded} of ${MISSES}`);
  report.figure('parse queue: misses answered 503 SERVICE_BUSY', `${busy} of ${MISSES}`);
  report.figure(
    'parse queue: the burst took, and its answers p50 / p99',
    `${seconds.toFixed(1)} s, ${Math.round(percentile(times, 0.5))} / ${Math.round(percentile(times, 0.99))} ms`,
  );
  report.goal(
    'parse queue: misses answered anything else (504 UPSTREAM_TIMEOUT above all)',
    others.length === 0 ? '0' : others.map(([outcome, count]) => `${count} × ${outcome}`).join(', '),
    '0',
    others.length === 0,
  );
  await Promise.all([service.stop(), simulator.close()]);
}

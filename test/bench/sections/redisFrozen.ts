import { startRedisServer } from '../../helpers/redisServer.js';
import { startSimulator } from '../../simulator/server.js';
import { startService } from '../processes.js';
import { median, percentile, timedGet, type BenchReport } from '../report.js';
import { HIT_PATH, LATENCY_MS, NO_QUOTA } from './settings.js';

const PROBES = 300;
/** A cached hit while Redis is frozen (once it is seen down) may take at most this much longer than with Redis up. */
const ALLOWANCE_MS = 5;

/** Sequential cached hits: each one's time, body read. */
async function probe(url: string, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let n = 0; n < count; n++) times.push(await timedGet(url));
  return times;
}

async function redisState(origin: string): Promise<string> {
  return ((await (await fetch(`${origin}/health/upstream`)).json()) as { redis: string }).redis;
}

/**
 * A Redis that stops answering (SIGSTOP) under cached hits: how long until the service counts it
 * down, what the hits cost meanwhile, and what they cost once it is down against the same hits with
 * Redis up. The tests assert the order of these (no hit waits on Redis once it is down); the
 * milliseconds are measured here.
 */
export async function redisFrozenSection(report: BenchReport): Promise<void> {
  report.section('cached hits while Redis is frozen, against the same with Redis up');
  const redis = await startRedisServer();
  const simulator = await startSimulator({ latencyMs: LATENCY_MS });
  const service = await startService({ ...NO_QUOTA, UPSTREAM_BASE_URLS: simulator.origin, REDIS_URL: redis.url });
  const url = service.origin + HIT_PATH;
  try {
    while ((await redisState(service.origin)) !== 'up') await new Promise((resolve) => setTimeout(resolve, 20));
    await timedGet(url);
    // A first round compiles the path; the second is the reference.
    await probe(url, PROBES);
    const up = await probe(url, PROBES);

    // Hits go on while the connection is silent; the frozen Redis is counted down after 1.5 s of
    // silence (3 command timeouts), each hit meanwhile waiting up to one command timeout (500 ms).
    redis.freeze();
    const frozenAt = performance.now();
    const detecting: number[] = [];
    while ((await redisState(service.origin)) !== 'down') {
      if (performance.now() - frozenAt > 30_000) throw new Error('the service never counted the frozen Redis down');
      detecting.push(await timedGet(url));
    }
    const downAfterMs = performance.now() - frozenAt;
    const down = await probe(url, PROBES);
    redis.thaw();

    const [before, during] = [up, down].map((times) => ({ p50: median(times), p99: percentile(times, 0.99) }));
    report.goal(
      'cached hit p50 with Redis frozen (seen down) minus with Redis up',
      `${(during!.p50 - before!.p50).toFixed(1)} ms (p50 ${during!.p50.toFixed(1)} vs ${before!.p50.toFixed(1)} ms, p99 ${during!.p99.toFixed(1)} vs ${before!.p99.toFixed(1)} ms)`,
      `≤ ${ALLOWANCE_MS} ms`,
      during!.p50 - before!.p50 <= ALLOWANCE_MS,
    );
    report.figure(
      'Redis frozen until the service counts it down, under sequential hits',
      `${downAfterMs.toFixed(0)} ms (silence bound 1,500 ms); ${detecting.length} hits meanwhile, p50 ${median(detecting).toFixed(0)} ms, max ${Math.max(...detecting).toFixed(0)} ms`,
    );
    while ((await redisState(service.origin)) !== 'up') await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    redis.thaw();
    await Promise.all([service.stop(), simulator.close()]);
    await redis.stop();
  }
}

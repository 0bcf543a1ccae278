import { startSimulator } from '../../simulator/server.js';
import { sentAnswer, startBareServer, startService } from '../processes.js';
import { percentile, timedGet, type BenchReport } from '../report.js';
import { NO_QUOTA } from './settings.js';

const REQUESTS = 1000;
const PACE_MS = 10;
/** The shortest TTL an override takes, and an upstream slower than it: every refresh outlasts the freshness it restores. */
const TTL_S = 1;
const UPSTREAM_LATENCY_MS = 1500;

/**
 * Stale-while-revalidate across expiries: upstream latency 1.5 s, TTL 1 s, a request every 10 ms to
 * the service and to a bare server sending the same bytes, interleaved. Every answer of the service
 * should come as fast as the bare server's slowest (its p99 plus 5 ms): none waits for the upstream.
 */
export async function staleWhileRevalidateSection(report: BenchReport): Promise<void> {
  report.section(
    `stale-while-revalidate: upstream latency ${UPSTREAM_LATENCY_MS / 1000} s, TTL ${TTL_S} s, ${REQUESTS.toLocaleString('en')} requests over ${(REQUESTS * PACE_MS) / 1000} s, beside a bare server`,
  );
  const simulator = await startSimulator({ latencyMs: UPSTREAM_LATENCY_MS });
  const service = await startService({
    ...NO_QUOTA,
    UPSTREAM_BASE_URLS: simulator.origin,
    CACHE_TTL_OVERRIDES: `/catalog/ongoing-series=${TTL_S}`,
    UPSTREAM_TIMEOUT_S: '10',
  });
  const url = `${service.origin}/catalog/ongoing-series`;
  const bare = await startBareServer(await sentAnswer(url));
  const ours: Array<Promise<number>> = [];
  const baseline: Array<Promise<number>> = [];
  for (let i = 0; i < REQUESTS; i++) {
    ours.push(timedGet(url));
    baseline.push(timedGet(bare.origin));
    await new Promise((resolve) => setTimeout(resolve, PACE_MS));
  }
  const [latencies, bareLatencies] = await Promise.all([Promise.all(ours), Promise.all(baseline)]);
  const bound = percentile(bareLatencies, 0.99) + 5;
  const share = latencies.filter((ms) => ms <= bound).length / latencies.length;
  report.goal(
    "share answered within the bare server's p99 + 5 ms across expiries",
    `${(share * 100).toFixed(1)} % within ${bound.toFixed(1)} ms (${simulator.hitCount('/ongoing/')} upstream fetches)`,
    '≥ 99 %',
    share >= 0.99,
  );
  await Promise.all([service.stop(), bare.stop(), simulator.close()]);
}

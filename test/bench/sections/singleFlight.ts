import { startSimulator } from '../../simulator/server.js';
import { startService } from '../processes.js';
import type { BenchReport } from '../report.js';
import { LATENCY_MS, NO_QUOTA } from './settings.js';

/** 100 concurrent cold requests for one key cost one upstream fetch. */
export async function singleFlightSection(report: BenchReport): Promise<void> {
  report.section('single-flight: 100 concurrent cold requests for one key');
  const simulator = await startSimulator({ latencyMs: LATENCY_MS });
  const service = await startService({ ...NO_QUOTA, UPSTREAM_BASE_URLS: simulator.origin });
  const statuses = await Promise.all(Array.from({ length: 100 }, () => fetch(service.origin + '/catalog/new-movie').then((r) => r.status)));
  const fetches = simulator.hitCount('/seri/');
  report.goal(
    'upstream fetches for 100 concurrent cold requests',
    `${fetches} (${statuses.filter((s) => s === 200).length} × 200)`,
    '1',
    fetches === 1,
  );
  await Promise.all([service.stop(), simulator.close()]);
}

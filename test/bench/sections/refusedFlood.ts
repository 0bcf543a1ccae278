import { junkFlood } from '../../helpers/junkFlood.js';
import { startSimulator } from '../../simulator/server.js';
import { startService } from '../processes.js';
import type { BenchReport } from '../report.js';

// A client past its quota costs nothing, not even memory: the service (under the production heap
// bound) takes 10,000 refused requests whose 14 KB URLs are all different, and its RSS after them
// is compared with its RSS before them, warm (compiled code and the connections' buffers in place).

const FLOOD = 10_000;
const WARM_UP = 500;
const RSS_GROWTH_BOUND_MB = 64;

export async function refusedFloodSection(report: BenchReport): Promise<void> {
  report.section(`Refused flood: ${FLOOD.toLocaleString('en')} requests past the quota, 14 KB query strings, all different`);
  const simulator = await startSimulator();
  const service = await startService({ UPSTREAM_BASE_URLS: simulator.origin, RATE_LIMIT_MAX: '3' });
  const client = junkFlood(service.origin);
  try {
    for (let spent = 0; spent < 4; spent++) await client.status('/catalog/genres');
    const refusedWarm = WARM_UP - (await client.flood(0, WARM_UP));
    const before = service.rssMB();
    const refused = FLOOD - (await client.flood(WARM_UP, FLOOD));
    const growth = service.rssMB() - before;
    report.figure(
      'refused of the flood (after the warm-up)',
      `${refused.toLocaleString('en')} of ${FLOOD.toLocaleString('en')} (${refusedWarm} of ${WARM_UP})`,
    );
    report.goal(
      'RSS growth over the refused flood',
      `${growth} MB (${before} MB before)`,
      `< ${RSS_GROWTH_BOUND_MB} MB`,
      growth < RSS_GROWTH_BOUND_MB,
    );
  } finally {
    client.close();
    await service.stop();
    await simulator.close();
  }
}

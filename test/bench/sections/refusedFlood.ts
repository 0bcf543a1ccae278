import { junkFlood } from '../../helpers/junkFlood.js';
import { startSimulator } from '../../simulator/server.js';
import { startService } from '../processes.js';
import type { BenchReport } from '../report.js';

// A client past its quota costs nothing, not even memory: the service (under the production heap
// bound) takes 10,000 refused requests whose 14 KB URLs are all different, and its RSS after them
// is compared with its RSS before them, warm (compiled code and the connections' buffers in place).
// At this size, too, every one is refused, the site sees none, and the service still answers
// (test/integration/refusedFlood.test.ts shows those on a smaller flood).

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
    const siteReadsBefore = simulator.hits.length;
    const before = service.rssMB();
    const refused = FLOOD - (await client.flood(WARM_UP, FLOOD));
    const growth = service.rssMB() - before;
    const siteReads = simulator.hits.length - siteReadsBefore;
    const health = await client.status('/health');
    report.goal(
      'refused of the flood (after the warm-up)',
      `${refused.toLocaleString('en')} of ${FLOOD.toLocaleString('en')} (${refusedWarm} of ${WARM_UP})`,
      'all',
      refused === FLOOD && refusedWarm === WARM_UP,
    );
    report.goal('requests to the site during the flood', String(siteReads), '0', siteReads === 0);
    report.goal('GET /health after the flood', String(health), '200', health === 200);
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

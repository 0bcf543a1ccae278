import { afterEach, describe, expect, it } from 'vitest';
import { startService, type ServiceProcess } from '../bench/processes.js';
import { junkFlood } from '../helpers/junkFlood.js';
import { startSimulator, type Simulator } from '../simulator/server.js';

// A client past its quota costs nothing. The real service in a child process, under the production
// heap bound (--max-old-space-size=160), takes a flood of refused requests whose URLs are all
// different and long: each is refused, the site sees none of them, and the service still answers.
// Each of those holds of every request, which 2,000 show as 10,000 would. What the flood costs at
// size is the bench's refused-flood section: 10,000 of them, its memory (at most 64 MB more) and
// the same two outcomes as goal rows; a memory bound is no test's to assert.

const FLOOD = 2_000;

let simulator: Simulator | undefined;
let service: ServiceProcess | undefined;
afterEach(async () => {
  await service?.stop();
  await simulator?.close();
  service = undefined;
  simulator = undefined;
});

describe('a flood of refused requests with 14 KB query strings', () => {
  it('leaves the service up and the site untouched', async () => {
    simulator = await startSimulator();
    service = await startService({ UPSTREAM_BASE_URLS: simulator.origin, RATE_LIMIT_MAX: '3' });
    const client = junkFlood(service.origin);
    try {
      // The answer is cached, and the quota spent on it.
      expect([
        await client.status('/catalog/genres'),
        await client.status('/catalog/genres'),
        await client.status('/catalog/genres'),
        await client.status('/catalog/genres'),
      ]).toEqual([200, 200, 200, 429]);
      expect(await client.flood(0, 500)).toBe(0);
      // The site has seen the genres page and the status probe's home page; the flood adds nothing.
      const sitePaths = simulator.hits.map((hit) => hit.path);
      expect(await client.flood(500, FLOOD)).toBe(0);
      expect(await client.status('/health')).toBe(200);
      expect(simulator.hits.map((hit) => hit.path)).toEqual(sitePaths);
    } finally {
      client.close();
    }
  }, 180_000);
});

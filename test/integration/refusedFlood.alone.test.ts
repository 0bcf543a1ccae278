import { Agent, get } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type ServiceProcess } from '../bench/processes.js';
import { startSimulator, type Simulator } from '../simulator/server.js';

// A client past its quota costs nothing: not even memory. The real service in a child process,
// under the production heap bound (--max-old-space-size=160), takes a flood of refused requests
// whose URLs are all different and long, as a script rotating junk in the query would send.

const FLOOD = 10_000;
const QUERY_BYTES = 14 * 1024;
const CONCURRENCY = 50;

let simulator: Simulator | undefined;
let service: ServiceProcess | undefined;
afterEach(async () => {
  await service?.stop();
  await simulator?.close();
  service = undefined;
  simulator = undefined;
});

describe('a flood of refused requests with 14 KB query strings', () => {
  it('leaves the service up, its memory within 64 MB of where it was, and the site untouched', async () => {
    simulator = await startSimulator();
    service = await startService({ UPSTREAM_BASE_URLS: simulator.origin, RATE_LIMIT_MAX: '3' });
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const status = (path: string) =>
      new Promise<number>((resolve, reject) => {
        get(service!.origin + path, { agent }, (res) => {
          res.resume();
          res.once('end', () => resolve(res.statusCode!));
        }).once('error', reject);
      });
    const junk = (index: number) => `/catalog/genres?n${index}=${'x'.repeat(QUERY_BYTES)}`;
    /** Sends `count` junk requests, `CONCURRENCY` at a time; how many were not refused. */
    const flood = async (from: number, count: number) => {
      let notRefused = 0;
      for (let start = from; start < from + count; start += CONCURRENCY) {
        const batch = await Promise.all(Array.from({ length: Math.min(CONCURRENCY, from + count - start) }, (_, i) => status(junk(start + i))));
        notRefused += batch.filter((code) => code !== 429).length;
      }
      return notRefused;
    };
    try {
      // The answer is cached, and the quota spent on it.
      expect([await status('/catalog/genres'), await status('/catalog/genres'), await status('/catalog/genres'), await status('/catalog/genres')]).toEqual([200, 200, 200, 429]);
      // Warm: compiled code and the connections' buffers are not what is measured.
      expect(await flood(0, 500)).toBe(0);
      // The site has seen the genres page and the status probe's home page; the flood adds nothing.
      const sitePaths = simulator.hits.map((hit) => hit.path);
      const before = service.rssMB();
      expect(await flood(500, FLOOD)).toBe(0);
      expect(service.rssMB() - before).toBeLessThan(64);
      expect(await status('/health')).toBe(200);
      expect(simulator.hits.map((hit) => hit.path)).toEqual(sitePaths);
    } finally {
      agent.destroy();
    }
  }, 180_000);
});

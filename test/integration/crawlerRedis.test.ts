import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startService } from '../bench/processes.js';
import { startSimulator, type Simulator } from '../simulator/server.js';
import { crawlEnv, expectedEntries, firstPassDone, seriesPagesRead, until, withoutTimes } from '../helpers/crawl.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';
import type { CrawlLockTiming } from '../../src/crawler/crawlLock.js';

// Instances sharing one real redis-server: one crawls, every one serves the same export, and when
// the crawling one dies (a child process killed with SIGKILL) another takes over and goes on.

/**
 * The production lock (30 s, tried every 10 s) shortened, so that a takeover comes within 6 s of the
 * kill. The holder renews it before every step: it must outlast the longest step on a loaded machine,
 * or a live holder loses it and two instances crawl.
 */
const LOCK_TIMING: CrawlLockTiming = { ttlMs: 5_000, retryMs: 1_000 };
/** How often the instance that joins last reads the shared catalog. */
const CATALOG_SYNC_EVERY_MS = 100;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the crawler on several instances (REDIS_URL)', () => {
  it('crawls on one instance only; when it is killed another takes over once the lock expires and goes on', async () => {
    const redis: RedisServer = await startRedisServer();
    cleanups.push(() => redis.stop());
    const simulator: Simulator = await startSimulator({ catalogSize: 120 });
    cleanups.push(() => simulator.close());
    const env = {
      ...crawlEnv(0.02),
      REDIS_URL: redis.url,
      UPSTREAM_BASE_URLS: simulator.origin,
      PUBLIC_URL: 'https://api.example',
      RATE_LIMIT_MAX: '100000',
    };

    // The service as its own process (built, as `npm start` runs it), as a deployment runs it.
    const child = await startService(env, { program: 'test/helpers/serviceChild.ts', args: [JSON.stringify(LOCK_TIMING)] });
    cleanups.push(() => child.stop());
    // The child is first: it holds the lock before the in-process instance starts.
    while (seriesPagesRead(simulator).length < 5) await new Promise((resolve) => setTimeout(resolve, 25));
    const survivor: TestStack = await startTestStack({ env, sharedSimulator: simulator, crawlLockTiming: LOCK_TIMING });
    cleanups.push(() => survivor.close());
    const seen = await until(survivor, (state) => state.read >= 30);
    expect(seen.crawlingHere).toBe(false);

    const killedAt = Date.now();
    process.kill(child.pid, 'SIGKILL');
    await child.stop();
    const readBeforeKill = seriesPagesRead(simulator).length;
    await until(survivor, (state) => state.crawlingHere, 60_000);
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    await until(survivor, firstPassDone, 60_000);

    // It went on: what the killed instance had read was not read again (bar the page under way).
    const all = seriesPagesRead(simulator);
    expect(new Set(all).size).toBe(120);
    expect(all.length).toBeLessThanOrEqual(120 + 1);
    expect(readBeforeKill).toBeGreaterThanOrEqual(30);

    // Started last, it reads what the survivor wrote at once rather than at the production interval.
    const other: TestStack = await startTestStack({
      env,
      sharedSimulator: simulator,
      crawlLockTiming: LOCK_TIMING,
      catalogSyncEveryMs: CATALOG_SYNC_EVERY_MS,
    });
    cleanups.push(() => other.close());
    await until(other, (state) => state.complete);
    const [first, second] = await Promise.all([survivor, other].map((stack) => request(stack.app).get('/export/catalog.json').expect(200)));
    expect(second!.headers.etag).toBe(first!.headers.etag);
    expect(second!.text).toBe(first!.text);
    expect(withoutTimes(first!.body.series)).toEqual(expectedEntries(simulator));
    expect(other.app.localCatalog.state().crawlingHere).toBe(false);
  }, 150_000);
});

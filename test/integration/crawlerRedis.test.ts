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
 * The production lock (30 s, tried every 10 s) shortened, so that a takeover comes within 2.25 s of
 * the kill. The holder renews it before every step, and an idle one every second: it must outlast
 * the longest step on a loaded machine, or a live holder loses it and two instances crawl.
 */
const LOCK_TIMING: CrawlLockTiming = { ttlMs: 2_000, retryMs: 250 };
/**
 * How often the in-process instances read the shared catalog (2 s in production): the survivor sees
 * the child's progress as it happens, and the instance that joins last what the survivor wrote.
 */
const CATALOG_SYNC_EVERY_MS = 100;
/** Three list pages: the child reads at least half of them before it is killed, the survivor the rest. */
const SITE_SERIES = 60;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the crawler on several instances (REDIS_URL)', () => {
  it('crawls on one instance only; when it is killed another takes over once the lock expires and goes on', async () => {
    const redis: RedisServer = await startRedisServer();
    cleanups.push(() => redis.stop());
    const simulator: Simulator = await startSimulator({ catalogSize: SITE_SERIES });
    cleanups.push(() => simulator.close());
    // One configuration for every instance, as one deployment has; the page deadline above all. The
    // page the killed child had under way stays locked in Redis for the child's deadline and 1 s
    // (stores/answers/redis.ts), and the survivor reads it first, waiting at most twice its own deadline
    // and 1 s: a child at the default 10 s against a survivor at 3 s outlived that wait, and the page
    // was skipped for the pass.
    const env = {
      ...crawlEnv(0.02),
      UPSTREAM_TIMEOUT_S: '3',
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
    const survivor: TestStack = await startTestStack({
      env,
      sharedSimulator: simulator,
      crawlLockTiming: LOCK_TIMING,
      catalogSyncEveryMs: CATALOG_SYNC_EVERY_MS,
    });
    cleanups.push(() => survivor.close());
    const seen = await until(survivor, (state) => state.read >= SITE_SERIES / 2);
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
    expect(new Set(all).size).toBe(SITE_SERIES);
    expect(all.length).toBeLessThanOrEqual(SITE_SERIES + 1);
    expect(readBeforeKill).toBeGreaterThanOrEqual(SITE_SERIES / 2);

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

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/server.js';
import { REPO_ROOT } from '../helpers/commandLine.js';
import { crawlEnv, expectedEntries, firstPassDone, seriesPagesRead, until, withoutTimes } from '../helpers/crawl.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';
import { freePort } from '../helpers/freePort.js';
import { builtPath } from '../helpers/serviceBuild.js';
import type { CrawlLockTiming } from '../../src/crawler/crawlLock.js';

// Instances sharing one real redis-server: one crawls, every one serves the same export, and when
// the crawling one dies (a child process killed with SIGKILL) another takes over and goes on.

/**
 * The production lock (30 s, tried every 10 s) shortened, so that a takeover comes within 6 s of the
 * kill. The holder renews it before every step: it must outlast the longest step on a loaded machine,
 * or a live holder loses it and two instances crawl.
 */
const LOCK_TIMING: CrawlLockTiming = { ttlMs: 5_000, retryMs: 1_000 };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The service as its own process (built, as `npm start` runs it), as a deployment runs it. */
async function startChild(env: Record<string, string>): Promise<ChildProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-child-'));
  const logFile = join(dir, 'service.log');
  const child = spawn(process.execPath, [await builtPath('test/helpers/serviceChild.ts'), JSON.stringify(LOCK_TIMING)], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(await freePort()), LOG_LEVEL: 'info', DATA_DIR: dir, SOLVER: 'off', ...env },
    stdio: ['ignore', openSync(logFile, 'w'), 'inherit'],
  });
  cleanups.push(() => void child.kill('SIGKILL'));
  const started = Date.now();
  while (!readFileSync(logFile, 'utf8').includes('"msg":"listening"')) {
    if (child.exitCode !== null || Date.now() - started > 30_000) throw new Error(`the child service did not start; see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}

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

    const child = await startChild(env);
    // The child is first: it holds the lock before the in-process instance starts.
    while (seriesPagesRead(simulator).length < 5) await new Promise((resolve) => setTimeout(resolve, 25));
    const survivor: TestStack = await startTestStack({ env, sharedSimulator: simulator, crawlLockTiming: LOCK_TIMING });
    cleanups.push(() => survivor.close());
    const seen = await until(survivor, (state) => state.read >= 30);
    expect(seen.crawlingHere).toBe(false);

    const killedAt = Date.now();
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const readBeforeKill = seriesPagesRead(simulator).length;
    await until(survivor, (state) => state.crawlingHere, 60_000);
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    await until(survivor, firstPassDone, 60_000);

    // It went on: what the killed instance had read was not read again (bar the page under way).
    const all = seriesPagesRead(simulator);
    expect(new Set(all).size).toBe(120);
    expect(all.length).toBeLessThanOrEqual(120 + 1);
    expect(readBeforeKill).toBeGreaterThanOrEqual(30);

    const other: TestStack = await startTestStack({ env, sharedSimulator: simulator, crawlLockTiming: LOCK_TIMING });
    cleanups.push(() => other.close());
    await until(other, (state) => state.complete);
    const [first, second] = await Promise.all([survivor, other].map((stack) => request(stack.app).get('/export/catalog.json').expect(200)));
    expect(second!.headers.etag).toBe(first!.headers.etag);
    expect(second!.text).toBe(first!.text);
    expect(withoutTimes(first!.body.series)).toEqual(expectedEntries(simulator));
    expect(other.app.localCatalog.state().crawlingHere).toBe(false);
  }, 150_000);
});

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/config/logger.js';
import { readFeed, type ReadFeed } from '../helpers/feedReader.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { startSimulator, type Simulator } from '../simulator/server.js';
import { noProbe } from '../helpers/testApp.js';

// The latest feed's entries have no release date on the page: their dates are the moments the
// service first saw them. A restart of the app, a second instance, or a later build must give
// each entry the same date, or readers would show it again as new.

const HOUR_MS = 3_600_000;

let simulator: Simulator;
const opened: App[] = [];
beforeAll(async () => {
  simulator = await startSimulator();
});
afterAll(() => simulator.close());
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()));
});

function instance(env: Record<string, string>, now: () => number): App {
  const config = loadConfig({
    UPSTREAM_BASE_URLS: simulator.origin,
    UPSTREAM_TIMEOUT_S: '3',
    LOG_LEVEL: 'silent',
    SOLVER: 'off',
    RATE_LIMIT_MAX: '100000',
    CRAWL_ENABLED: 'false',
    ...env,
  });
  const app = createApp({ config, logger: createLogger('silent'), now, scheduleProbe: noProbe });
  opened.push(app);
  return app;
}

async function latest(app: App, format: 'atom' | 'rss' | 'json' = 'json'): Promise<ReadFeed> {
  const response = await request(app).get(`/feeds/latest.${format}`).set('Host', 'api.example');
  expect(response.status).toBe(200);
  return readFeed(response.text, format);
}

const datesOf = (feed: ReadFeed) => feed.entries.map((entry) => [entry.id, entry.date]);

describe('first-seen dates in DATA_DIR', () => {
  it('are the same after a restart of the app, hours later', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'feed-dates-'));
    const started = Date.now();
    const first = instance({ DATA_DIR: dataDir }, () => started);
    const before = await latest(first);
    expect(before.entries.length).toBe(20);
    expect(before.entries[0]!.date).toBe(new Date(Math.floor(started / 1000) * 1000).toISOString());
    await first.close();
    opened.splice(0);

    const second = instance({ DATA_DIR: dataDir }, () => started + 5 * HOUR_MS);
    for (const format of ['json', 'atom', 'rss'] as const) expect(datesOf(await latest(second, format))).toEqual(datesOf(before));
    // One line per entry, nothing more: the file holds what is remembered.
    const lines = readFileSync(join(dataDir, 'feed-first-seen.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { id: string }).id).sort()).toEqual(before.entries.map((entry) => entry.id).sort());
  });
});

describe('first-seen dates in Redis', () => {
  let redisServer: RedisServer;
  beforeAll(async () => {
    redisServer = await startRedisServer();
  });
  afterAll(() => redisServer.stop());

  it('are the same on two instances on one redis-server, and after both restart', async () => {
    const started = Date.now();
    const env = () => ({ REDIS_URL: redisServer.url, DATA_DIR: mkdtempSync(join(tmpdir(), 'feed-dates-')) });
    const one = instance(env(), () => started);
    const two = instance(env(), () => started + 10 * 60_000);
    const fromOne = await latest(one);
    const fromTwo = await latest(two, 'atom');
    expect(fromOne.entries.length).toBe(20);
    expect(datesOf(fromTwo)).toEqual(datesOf(fromOne));
    await Promise.all(opened.splice(0).map((app) => app.close()));

    const three = instance(env(), () => started + 2 * HOUR_MS);
    expect(datesOf(await latest(three, 'rss'))).toEqual(datesOf(fromOne));
  });
});

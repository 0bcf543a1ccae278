import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App, type AppDeps } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger, type Logger } from '../../src/config/logger.js';
import type { RedisTiming } from '../../src/stores/index.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../simulator/server.js';
import { noProbe } from '../helpers/testApp.js';
import { shortRetries } from '../helpers/upstreamClient.js';
import { manualClock, until, untilRedisIs } from '../helpers/waiting.js';

// Two instances of the app on one real redis-server and one simulator, each listening on its own
// loopback port, as two replicas behind a proxy: the quota, the answer cache, the one fetch per
// page and the chosen origin hold across them, and a Redis outage costs no answer.

const DEADLINE_MS = 3000;
/**
 * The Redis connection's clocks shortened (2 s each in production): a frozen Redis that no request
 * uses is pinged within 250 ms, so down 1.5 s of silence later, and a restarted or thawed one is
 * tried again within 250 ms. The silence that counts as down stays the production one.
 */
const REDIS_TIMING: RedisTiming = { heartbeatMs: 250, reconnectMaxMs: 250 };

let redisServer: RedisServer;
let inspector: Redis;
beforeAll(async () => {
  redisServer = await startRedisServer();
  // The tests' own look into Redis; it waits through the outage test's restart.
  inspector = new Redis(redisServer.url);
  inspector.on('error', () => undefined);
});
afterAll(async () => {
  inspector.disconnect();
  await redisServer.stop();
});

interface Instance {
  app: App;
  server: Server;
  base: string;
}

const opened: { close(): Promise<void> }[] = [];
beforeEach(async () => {
  await inspector.flushall();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

async function simulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const started = await startSimulator(options);
  opened.push(started);
  return started;
}

async function instance(
  origins: string[],
  env: Record<string, string> = {},
  logger: Logger = createLogger('silent'),
  now: () => number = Date.now,
  upstreamTiming: AppDeps['upstreamTiming'] = undefined,
): Promise<Instance> {
  const config = loadConfig({
    UPSTREAM_BASE_URLS: origins.join(','),
    UPSTREAM_TIMEOUT_S: String(DEADLINE_MS / 1000),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'redis-shared-test-')),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '100000',
    SOLVER: 'off',
    // Each test speaks for a client of its own through X-Forwarded-For, behind one trusted proxy hop.
    TRUST_PROXY: '1',
    REDIS_URL: redisServer.url,
    CRAWL_ENABLED: 'false',
    ...env,
  });
  const app = createApp({
    config,
    logger,
    scheduleProbe: noProbe,
    now,
    upstreamTiming: shortRetries(upstreamTiming),
    redisTiming: REDIS_TIMING,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  opened.push({
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    },
  });
  await untilRedisIs(() => health({ base }), 'up');
  return { app, server, base };
}

async function twoInstances(env: Record<string, string> = {}, now: () => number = Date.now) {
  const upstream = await simulator();
  const logger = createLogger('silent');
  const [a, b] = await Promise.all([instance([upstream.origin], env, logger, now), instance([upstream.origin], env, logger, now)]);
  return { upstream, a: a, b: b };
}

/** GET within the deadline (plus a little for the loopback), as a client with this address. */
async function get(on: Instance, path: string, client: string, deadlineMs = DEADLINE_MS) {
  const response = await fetch(`${on.base}${path}`, {
    headers: { 'X-Forwarded-For': client },
    signal: AbortSignal.timeout(deadlineMs + 1000),
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

async function health(on: Pick<Instance, 'base'>) {
  return (await (await fetch(`${on.base}/health/upstream`)).json()) as { redis: string; origin: string };
}

describe('the quota across instances', () => {
  it('lets exactly RATE_LIMIT_MAX of 200 concurrent requests from one client through, spread over both', async () => {
    // No deadline of this file's: the first fetch (a cold parse thread, the list path looked up)
    // can outlast 3 s on a loaded machine, and this test counts the quota, not deadlines.
    const { upstream, a, b } = await twoInstances({ RATE_LIMIT_MAX: '50', UPSTREAM_TIMEOUT_S: '20' });
    // The answer is fetched first, by another client: the requests counted below then wait on no
    // upstream fetch, whose deadline a loaded machine could miss (every one that got through would
    // then be an error, none a 200).
    expect((await get(a, '/catalog/genres', '198.51.100.101', 20_000)).status).toBe(200);
    const fetched = upstream.hitCount();
    const sent = Date.now();
    const answers = await Promise.all(
      // A generous client-side limit: 200 requests at once on a loaded 2-core machine may queue a while.
      Array.from({ length: 200 }, (_, i) => get(i % 2 === 0 ? a : b, '/catalog/genres', '198.51.100.1', 30_000)),
    );
    expect(upstream.hitCount()).toBe(fetched);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 429)).toHaveLength(150);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(new Set(refused.map((answer) => answer.headers.get('x-ratelimit-remaining')))).toEqual(new Set(['0']));
    // Whole seconds until the one window (opened after `sent`) ends.
    const longest = Math.ceil((sent + 3_600_000 - Date.now()) / 1000);
    for (const answer of refused) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(longest);
    for (const answer of refused) expect(Number(answer.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(JSON.parse((refused[0] as { body: string }).body)).toMatchObject({ status: 'error', error: { code: 'RATE_LIMITED' } });
    const remaining = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => Number(answer.headers.get('x-ratelimit-remaining')));
    expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    // The counter is one key in Redis, under the API quota's prefix.
    expect(await inspector.get('quota:api:198.51.100.1')).toBe('200');
  });

  it('keeps the report quota apart from the API quota', async () => {
    const { a, b } = await twoInstances({ RATE_LIMIT_MAX: '3', REPORT_RATE_LIMIT_MAX: '1' });
    for (const on of [a, b, a]) expect((await get(on, '/catalog/genres', '198.51.100.2')).status).toBe(200);
    expect((await get(b, '/catalog/genres', '198.51.100.2')).status).toBe(429);
    const report = (on: Instance) =>
      fetch(`${on.base}/api/reports`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.2' },
        body: JSON.stringify({
          category: 'bug',
          endpoint: '/catalog/genres',
          title: 'Genre list empty',
          description: 'The genre list came back empty today.',
          severity: 'low',
        }),
      });
    expect((await report(a)).status).toBe(201);
    expect((await report(b)).status).toBe(429);
    expect(await inspector.get('quota:api:198.51.100.2')).toBe('4');
    expect(await inspector.get('quota:report:198.51.100.2')).toBe('2');
  });
});

describe('the answer cache across instances', () => {
  it('fetches a page once for 20 concurrent misses spread over both instances', async () => {
    const { upstream, a, b } = await twoInstances();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        get(i % 2 === 0 ? a : b, '/catalog/ongoing-series?page=2', '198.51.100.3').then((answer) => ({ ...answer, on: i % 2 })),
      ),
    );
    expect(upstream.hitCount('/ongoing/')).toBe(1);
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((answer) => answer.headers.get('etag'))).size).toBe(1);
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    // The instance that fetched answers MISS (its own concurrent misses join its fetch); the other, HIT from Redis.
    const fetcher = answers.find((answer) => answer.headers.get('x-cache') === 'MISS')?.on;
    for (const answer of answers) expect(answer.headers.get('x-cache')).toBe(answer.on === fetcher ? 'MISS' : 'HIT');
  });

  it('answers HIT on B, with the same ETag and body, for a page A fetched', async () => {
    const { upstream, a, b } = await twoInstances();
    const fetched = await get(a, '/catalog/search?q=Soul%20Land', '198.51.100.4');
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('x-cache')).toBe('MISS');
    const shared = await get(b, '/catalog/search?q=soul%20%20land', '198.51.100.4');
    expect(shared.status).toBe(200);
    expect(shared.headers.get('x-cache')).toBe('HIT');
    expect(shared.headers.get('etag')).toBe(fetched.headers.get('etag'));
    expect(shared.body).toBe(fetched.body);
    expect(upstream.hitCount('/?s=')).toBe(1);
    // B keeps it in its own memory now: the next one leaves from B's cached-hit path, still a HIT.
    expect((await get(b, '/catalog/search?q=soul%20land', '198.51.100.4')).headers.get('x-cache')).toBe('HIT');
    expect(upstream.hitCount('/?s=')).toBe(1);
  });
});

describe('stale answers across instances', () => {
  it('are refreshed by one upstream fetch for both instances', async () => {
    // Both instances' clock, moved by hand: the answer is stale when the test says, not when a slow step makes it.
    const clock = manualClock();
    const { upstream, a, b } = await twoInstances({ CACHE_TTL_OVERRIDES: '/catalog/search=1' }, clock.now);
    const path = '/catalog/search?q=stale';
    expect((await get(a, path, '198.51.100.10')).headers.get('x-cache')).toBe('MISS');
    expect((await get(b, path, '198.51.100.10')).headers.get('x-cache')).toBe('HIT');
    clock.offsetMs += 1100;
    const stale = await Promise.all([get(a, path, '198.51.100.10'), get(b, path, '198.51.100.10')]);
    expect(stale.map((answer) => answer.headers.get('x-cache'))).toEqual(['STALE', 'STALE']);
    // Each instance starts a background refresh; the one that takes the lock fetches, the other takes its answer.
    const refreshed = async (on: Instance) => {
      for (let tries = 0; tries < 500; tries++) {
        const answer = await get(on, path, '198.51.100.10');
        if (answer.headers.get('x-cache') === 'HIT') return answer;
        await sleep(20);
      }
      throw new Error(`${on.base} never refreshed ${path}`);
    };
    const [fromA, fromB] = await Promise.all([refreshed(a), refreshed(b)]);
    expect(upstream.hitCount('/?s=stale')).toBe(2);
    expect(JSON.parse(fromB.body).meta.fetchedAt).toBe(JSON.parse(fromA.body).meta.fetchedAt);
  });
});

describe('a Redis outage', () => {
  it('costs no answer: the quota and the cache fall back to memory, health shows it, and sharing resumes when Redis is back', async () => {
    const { upstream, a, b } = await twoInstances({ RATE_LIMIT_MAX: '1000' });
    const failures: string[] = [];
    let stop = false;
    let answered = 0;
    // Traffic on both instances over several pages, until told to stop; any 5xx or a hang fails it.
    const traffic = Array.from({ length: 4 }, async (_, worker) => {
      for (let n = 0; !stop; n++) {
        const on = (worker + n) % 2 === 0 ? a : b;
        const answer = await get(on, `/catalog/search?q=traffic${n % 5}`, '198.51.100.5').catch((error: unknown) => ({
          status: String(error),
        }));
        if (answer.status !== 200) failures.push(`${answer.status}`);
        answered++;
      }
    });
    // Requests through the loss of Redis, and then 20 more with both instances on memory.
    while (answered < 20) await sleep(10);
    await redisServer.kill();
    await Promise.all([untilRedisIs(() => health(a), 'down'), untilRedisIs(() => health(b), 'down')]);
    for (const enough = answered + 20; answered < enough;) await sleep(10);
    stop = true;
    await Promise.all(traffic);
    expect(failures).toEqual([]);

    // Each instance counts in its own memory now: a new client has its full quota on each.
    expect((await get(a, '/catalog/genres', '198.51.100.6')).headers.get('x-ratelimit-remaining')).toBe('999');
    expect((await get(b, '/catalog/genres', '198.51.100.6')).headers.get('x-ratelimit-remaining')).toBe('999');
    expect((await get(a, '/catalog/genres', '198.51.100.6')).headers.get('x-ratelimit-remaining')).toBe('998');
    // And the cache is each instance's own: B fetches a page A fetched.
    expect((await get(a, '/catalog/search?q=outage', '198.51.100.6')).headers.get('x-cache')).toBe('MISS');
    expect((await get(b, '/catalog/search?q=outage', '198.51.100.6')).headers.get('x-cache')).toBe('MISS');
    expect(upstream.hitCount('/?s=outage')).toBe(2);
    const metrics = await (await fetch(`${a.base}/metrics`)).text();
    expect(metrics).toContain('redis_up 0');

    await redisServer.restart();
    await Promise.all([untilRedisIs(() => health(a), 'up'), untilRedisIs(() => health(b), 'up')]);
    expect(await fetch(`${a.base}/metrics`).then((response) => response.text())).toContain('redis_up 1');
    // Shared again: one count for both instances, and A's fetch is B's hit.
    expect((await get(a, '/catalog/genres', '198.51.100.7')).headers.get('x-ratelimit-remaining')).toBe('999');
    expect((await get(b, '/catalog/genres', '198.51.100.7')).headers.get('x-ratelimit-remaining')).toBe('998');
    expect((await get(a, '/catalog/search?q=back', '198.51.100.7')).headers.get('x-cache')).toBe('MISS');
    const shared = await get(b, '/catalog/search?q=back', '198.51.100.7');
    expect(shared.headers.get('x-cache')).toBe('HIT');
    expect(upstream.hitCount('/?s=back')).toBe(1);
  });
});

describe('the quota across a Redis loss', () => {
  it('starts no window again: what was counted while Redis was away is carried into it, so one client gets at most the quota on each instance', async () => {
    const quota = 100;
    const { a, b } = await twoInstances({ RATE_LIMIT_MAX: String(quota) });
    const granted = new Map<string, number>();
    const resets = new Map<string, Set<number>>();
    // One client's requests, one after the other, alternating between the instances (A first).
    const send = async (client: string, count: number) => {
      for (let n = 0; n < count; n++) {
        const answer = await get(n % 2 === 0 ? a : b, '/catalog/genres', client);
        expect([200, 429]).toContain(answer.status);
        if (answer.status === 200) granted.set(client, (granted.get(client) ?? 0) + 1);
        resets.set(client, (resets.get(client) ?? new Set()).add(Number(answer.headers.get('x-ratelimit-reset'))));
      }
    };
    const heavy = '198.51.100.13';
    const light = '198.51.100.14';
    await send(heavy, 60);
    await send(light, 30);
    expect([granted.get(heavy), granted.get(light)]).toEqual([60, 30]);

    await redisServer.kill();
    await Promise.all([untilRedisIs(() => health(a), 'down'), untilRedisIs(() => health(b), 'down')]);
    await send(heavy, 2 * quota);
    await send(light, 20);
    // Each instance counts on from the last count Redis gave it (A 59 and B 60 for the heavy client).
    expect(granted.get(heavy)).toBe(60 + 41 + 40);
    expect(granted.get(light)).toBe(50);

    await redisServer.restart();
    await Promise.all([untilRedisIs(() => health(a), 'up'), untilRedisIs(() => health(b), 'up')]);
    await send(heavy, 2 * quota);
    await send(light, quota);
    // Redis came back empty; each instance added what it counted meanwhile, never leaving the
    // counter below its own count. So the counters hold every request sent (heavy: 60, 200 away,
    // 200 after; light: 30, 20, 100), give or take the one count by which the two instances'
    // last views of a client differ (one less when A carries its count over first).
    expect([459, 460]).toContain(Number(await inspector.get(`quota:api:${heavy}`)));
    expect([149, 150]).toContain(Number(await inspector.get(`quota:api:${light}`)));
    expect(granted.get(heavy)).toBe(141);
    expect([100, 101]).toContain(granted.get(light));
    // And in the same window throughout: the reset time never moved (by more than its rounding to a second).
    for (const client of [heavy, light]) {
      const seen = [...(resets.get(client) ?? [])];
      expect(Math.max(...seen) - Math.min(...seen)).toBeLessThanOrEqual(1);
    }
  });
});

describe('a frozen Redis', () => {
  it('is down within seconds under load, cached hits stop waiting on it, and it is back up once it answers again', async () => {
    const upstream = await simulator();
    // Debug: every Redis operation that fell back to memory is logged, with why it failed.
    const logged: { level: number; msg: string; err?: { message: string } }[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const a = await instance([upstream.origin], {}, logger);
    const path = '/catalog/search?q=frozen';
    expect((await get(a, path, '198.51.100.11')).headers.get('x-cache')).toBe('MISS');
    const hits: { worker: number; sentWhileDown: boolean; status: number; cache: string | null }[] = [];
    let seenDown = false;
    let stop = false;
    // Cached hits from four clients at once, until told to stop.
    const traffic = Array.from({ length: 4 }, async (_, worker) => {
      while (!stop) {
        const sentWhileDown = seenDown;
        const answer = await get(a, path, '198.51.100.11').catch(() => ({ status: 0, headers: new Headers() }));
        hits.push({ worker, sentWhileDown, status: answer.status, cache: answer.headers.get('x-cache') });
      }
    });
    const answeredWhileDown = (worker: number) => hits.filter((hit) => hit.worker === worker && hit.sentWhileDown).length;
    try {
      // Traffic under way before the freeze.
      while (hits.length < 8) await sleep(10);
      redisServer.freeze();
      await untilRedisIs(() => health(a), 'down');
      const downLogged = logged.length;
      seenDown = true;
      // Every client gets answers while Redis stays frozen (a hit waiting for Redis would get none until the thaw below).
      while ([0, 1, 2, 3].some((worker) => answeredWhileDown(worker) < 10)) await sleep(10);
      // The status page reads the shared history: it answers without waiting on Redis either.
      expect((await fetch(`${a.base}/status`)).status).toBe(200);
      stop = true;
      await Promise.all(traffic);
      expect(hits.filter((hit) => hit.sentWhileDown && (hit.status !== 200 || hit.cache !== 'HIT'))).toEqual([]);
      expect(hits.map((hit) => hit.status)).toEqual(hits.map(() => 200));
      // Before, every hit waited out the 500 ms command timeout. Once down, no Redis command is sent
      // that could: none of the operations that fell back to memory since then timed out.
      const fellBack = logged.slice(downLogged).filter((line) => line.msg.startsWith('redis operation failed'));
      expect(fellBack.filter((line) => line.err?.message === 'Command timed out')).toEqual([]);
      expect(await (await fetch(`${a.base}/metrics`)).text()).toMatch(/^redis_up 0$/m);
      const down = logged.filter((line) => line.msg.startsWith('redis down'));
      expect(down).toHaveLength(1);
      // Down because the connection went silent for 1.5 s, the rule that notices a frozen Redis.
      expect(down[0]?.err?.message).toMatch(/didn't receive any in 1500ms/);
    } finally {
      stop = true;
      redisServer.thaw();
      await Promise.all(traffic);
    }
    await untilRedisIs(() => health(a), 'up');
    expect(await (await fetch(`${a.base}/metrics`)).text()).toMatch(/^redis_up 1$/m);
    expect(logged.filter((line) => line.msg.startsWith('redis up'))).toHaveLength(2);
    // Counting in Redis again: a new client's count is the key's.
    expect((await get(a, path, '198.51.100.12')).headers.get('x-ratelimit-remaining')).toBe('99999');
    expect(await inspector.get('quota:api:198.51.100.12')).toBe('1');
  });

  it('is down within seconds without traffic too, and up again once it answers', async () => {
    const logged: { msg: string; err?: { message: string } }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const a = await instance([(await simulator()).origin], {}, logger);
    redisServer.freeze();
    try {
      await untilRedisIs(() => health(a), 'down');
      // No request used Redis: the connection's own heartbeat went unanswered, and the silence dropped it.
      expect(logged.filter((line) => line.msg.startsWith('redis down')).map((line) => line.err?.message)).toEqual([
        expect.stringMatching(/didn't receive any in 1500ms/),
      ]);
    } finally {
      redisServer.thaw();
    }
    await untilRedisIs(() => health(a), 'up');
  });
});

describe('the chosen origin across instances', () => {
  it('is adopted by the other instances after one fails over, and by an instance that starts later', async () => {
    const primary = await simulator();
    const mirror = await simulator({ host: '127.0.0.2' });
    const origins = [primary.origin, mirror.origin];
    // The first failed page sets the primary aside.
    const failover = (): Promise<Instance> => instance(origins, {}, undefined, undefined, { breakerThreshold: 1 });
    const [a, b] = await Promise.all([failover(), failover()]);
    primary.setFaults([{ kind: 'status', status: 522 }]);
    expect((await get(a, '/catalog/ongoing-series', '198.51.100.8')).status).toBe(200);
    expect((await health(a)).origin).toBe(mirror.origin);
    await until(async () => (await health(b)).origin === mirror.origin);
    expect((await health(b)).origin).toBe(mirror.origin);
    const primaryHits = primary.hitCount();
    const fromB = await get(b, '/catalog/ongoing-series?page=3', '198.51.100.8');
    expect(JSON.parse(fromB.body).meta.source).toBe(`${mirror.origin}/ongoing/page/3/`);
    expect(primary.hitCount()).toBe(primaryHits);

    const c = await failover();
    await until(async () => (await health(c)).origin === mirror.origin);
    expect((await health(c)).origin).toBe(mirror.origin);
  });
});

describe('the challenge clearance across instances', () => {
  it('is solved once, in one Chromium, for two instances challenged at once', async () => {
    // The interstitial's wait each solve sits out: 50 ms, not the wall's 300 ms (under test is that one solve serves both).
    const walled = await simulator({ wall: { minSolveMs: 50 } });
    const env = { SOLVER: 'chromium', UPSTREAM_TIMEOUT_S: '15' };
    const [a, b] = await Promise.all([instance([walled.origin], env), instance([walled.origin], env)]);
    const [fromA, fromB] = await Promise.all([
      get(a, '/catalog/ongoing-series', '198.51.100.9', 15_000),
      get(b, '/catalog/search?q=soul', '198.51.100.9', 15_000),
    ]);
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect(walled.wallStats()).toMatchObject({ solved: 1, rejected: 0 });
    const solves = await Promise.all(
      [a, b].map(async (on) => ((await (await fetch(`${on.base}/health/upstream`)).json()) as { solves: { ok: number } }).solves.ok),
    );
    expect(solves.sort()).toEqual([0, 1]);
  });
});

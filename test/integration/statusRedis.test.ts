import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { everyInterval, type ProbeSchedule } from '../../src/status/schedule.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// With REDIS_URL the status history lives in one Redis stream: every instance shows the probes and
// traffic of all of them, and the history outlives any one instance.

const T0 = Date.parse('2026-11-20T03:00:00Z');
const MINUTE = 60_000;
const DAY = 86_400_000;

let redisServer: RedisServer;
let inspector: Redis;
beforeAll(async () => {
  redisServer = await startRedisServer();
  inspector = new Redis(redisServer.url);
});
afterAll(async () => {
  inspector.disconnect();
  await redisServer.stop();
});

let stacks: TestStack[] = [];
beforeEach(async () => {
  await inspector.flushall();
});
afterEach(async () => {
  await Promise.all(stacks.map((stack) => stack.close()));
  stacks = [];
});

async function instance(clock: { now: number }) {
  let probe: (() => Promise<unknown>) | undefined;
  const scheduleProbe: ProbeSchedule = (run) => {
    probe = run;
    return { stop: () => undefined };
  };
  const stack = await startTestStack({ now: () => clock.now, scheduleProbe, env: { REDIS_URL: redisServer.url } });
  stacks.push(stack);
  return {
    stack,
    probeAt: async (at: number) => {
      clock.now = at;
      await probe?.();
    },
    history: async () => (await request(stack.app).get('/health/history').expect(200)).body,
  };
}

/** The first read may run before the connection is up; every later read starts again from there. */
async function untilRedisUp(stack: TestStack): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await request(stack.app).get('/health/upstream')).body.redis === 'up') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('redis never came up');
}

describe('the status history in Redis', () => {
  it('logs no error at a normal start: the history is read once Redis is connected, and the probe at start is saved there', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) });
    const stack = await startTestStack({
      logger,
      scheduleProbe: everyInterval,
      probeIntervalMs: 3_600_000,
      env: { REDIS_URL: redisServer.url },
    });
    stacks.push(stack);
    for (const deadline = Date.now() + 10_000; (await inspector.xlen('status:history')) === 0 && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await request(stack.app).get('/health/history').expect(200)).body.upstream.state).toBe('up');
    expect(await inspector.xlen('status:history')).toBe(1);
    expect(lines.map((line) => line.msg)).toContain('redis up: sharing quotas, cache, locks, clearance and origin');
    // pino's levels: 40 warn, 50 error.
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  });

  it('is shared: each instance shows the probes and the saved traffic of both', async () => {
    const clock = { now: T0 };
    const a = await instance(clock);
    const b = await instance(clock);
    await untilRedisUp(a.stack);
    await untilRedisUp(b.stack);
    await a.probeAt(T0);
    a.stack.simulator.setFaults([{ kind: 'status', status: 500 }]);
    b.stack.simulator.setFaults([{ kind: 'status', status: 500 }]);
    await b.probeAt(T0 + 5 * MINUTE);
    await request(a.stack.app).get('/catalog/genres').expect(502);

    const fromA = await a.history();
    const fromB = await b.history();
    expect(fromA.upstream.uptime['24h']).toEqual({ percent: 50, probes: 2, failed: 1 });
    expect(fromB.upstream).toEqual(fromA.upstream);
    expect(fromB.incidents).toEqual([
      {
        start: '2026-11-20T03:05:00.000Z',
        end: null,
        durationSeconds: null,
        codes: ['UPSTREAM_ERROR'],
        cause: 'situs sumber menjawab dengan error atau tidak bisa dihubungi',
        failedProbes: 1,
      },
    ]);
    expect(await inspector.xlen('status:history')).toBe(2);

    // A's traffic of the hour is saved when it stops; B then shows it.
    await a.stack.close();
    stacks = [b.stack];
    // The first request of the next period (/health/history is built at most once per 5 s) shows it.
    clock.now += 5_000;
    const genres = (await b.history()).traffic24h.find((row: { endpoint: string }) => row.endpoint === '/catalog/genres');
    expect(genres).toMatchObject({ successes: 0, errors: { UPSTREAM_ERROR: 1 } });
  });

  it("skips an unreadable entry with a warning, and bounds the history to 90 days by the records' times", async () => {
    const clock = { now: T0 };
    const a = await instance(clock);
    await untilRedisUp(a.stack);
    await a.probeAt(T0);
    await inspector.xadd('status:history', '*', 'record', '{"kind":"probe","at":');
    await a.probeAt(T0 + 5 * MINUTE);
    expect((await a.history()).upstream.uptime['24h']).toEqual({ percent: 100, probes: 2, failed: 0 });

    await a.probeAt(T0 + 92 * DAY);
    expect((await a.history()).upstream.uptime['30d']).toEqual({ percent: 100, probes: 1, failed: 0 });
    const left = await inspector.xrange('status:history', '-', '+');
    expect(left.map(([, fields]) => JSON.parse(fields[1] as string).at)).toEqual([T0 + 92 * DAY]);
  });
});

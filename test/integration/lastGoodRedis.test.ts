import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';
import { manualClock, untilRedisIs } from '../helpers/waiting.js';
import { startSimulator, type Simulator } from '../simulator/server.js';

// Last good answers across instances on one real redis-server: what one instance fetched, any other
// serves when the site is down; a Redis outage leaves each instance what it fetched or read itself.

const DAY_MS = 86_400_000;
const SERIES = '/catalog/series/shadow-chronicle';
const GENRES = '/catalog/genres';

let redis: RedisServer;
let site: Simulator;
beforeAll(async () => {
  [redis, site] = await Promise.all([startRedisServer(), startSimulator()]);
});
afterAll(async () => {
  await Promise.all([redis.stop(), site.close()]);
});

const clock = manualClock();
const stacks: TestStack[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((stack) => stack.close()));
  site.setSiteDown(null);
  site.clearFaults();
  clock.offsetMs = 0;
});

/** An instance on its own DATA_DIR, sharing Redis, once Redis is up for it. */
async function instance(): Promise<TestStack> {
  const stack = await startTestStack({ sharedSimulator: site, env: { REDIS_URL: redis.url }, now: clock.now });
  stacks.push(stack);
  await untilRedisIs(healthOf(stack), 'up');
  return stack;
}

/** /health/upstream's body, as the stack answers it. */
const healthOf = (stack: TestStack) => async () => (await request(stack.app).get('/health/upstream')).body as { redis?: unknown };

describe('last good answers with REDIS_URL', () => {
  it('serves on one instance, marked stale, what another fetched; a Redis outage costs it only the answers it never read', async () => {
    const [a, b] = [await instance(), await instance()];
    const fetched = await request(a.app).get(SERIES);
    const genres = await request(a.app).get(GENRES);
    expect([fetched.headers['x-cache'], genres.headers['x-cache']]).toEqual(['MISS', 'MISS']);

    clock.offsetMs = 2 * DAY_MS;
    site.setSiteDown('unavailable');
    const fromA = await request(b.app).get(SERIES);
    expect(fromA.status).toBe(200);
    expect(fromA.headers['x-cache']).toBe('STALE');
    expect(fromA.body.data).toEqual(fetched.body.data);
    expect(fromA.body.meta.stale).toEqual({ since: fetched.body.meta.fetchedAt, reason: 'UPSTREAM_ERROR' });

    await redis.kill();
    await Promise.all([untilRedisIs(healthOf(a), 'down'), untilRedisIs(healthOf(b), 'down')]);
    // B read the series once: its own copy stands in. It never read the genres: only A has them.
    expect((await request(b.app).get(SERIES)).body.data).toEqual(fetched.body.data);
    const notRead = await request(b.app).get(GENRES);
    expect(notRead.status).toBe(502);
    expect(notRead.body.error.code).toBe('UPSTREAM_ERROR');
    const ownCopy = await request(a.app).get(GENRES);
    expect(ownCopy.headers['x-cache']).toBe('STALE');
    expect(ownCopy.body.data).toEqual(genres.body.data);
    await redis.restart();
  });

  it('drops a page gone upstream from Redis too: an instance that never read it no longer serves it', async () => {
    const [a, c] = [await instance(), await instance()];
    expect((await request(a.app).get(SERIES)).status).toBe(200);
    clock.offsetMs = 2 * DAY_MS;
    site.setFaults([{ kind: 'not-found' }]);
    expect((await request(a.app).get(SERIES)).status).toBe(404);
    site.clearFaults();
    site.setSiteDown('unavailable');
    const afterDrop = await request(c.app).get(SERIES);
    expect(afterDrop.status).toBe(502);
    expect(afterDrop.body.error.code).toBe('UPSTREAM_ERROR');
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import type { Options } from 'express-rate-limit';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/config/logger.js';
import { createMetrics } from '../../src/metrics.js';
import { createRedisConnection, type RedisConnection } from '../../src/redis/connection.js';
import { createMemoryQuota } from '../../src/stores/quota/memory.js';
import { RedisQuotaStore } from '../../src/stores/quota/redis.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { until } from '../helpers/waiting.js';

// The quota's Redis store against a real redis-server that freezes or dies: memory counts on from
// Redis's last count while it is away, and what it counted is carried into Redis when it is back,
// into the same window; a window that ended meanwhile is not carried.

let server: RedisServer;
let inspector: Redis;
const connections: RedisConnection[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  inspector = new Redis(server.url);
  inspector.on('error', () => undefined);
});
afterAll(async () => {
  await Promise.all(connections.map((connection) => connection.close()));
  inspector.disconnect();
  await server.stop();
});

/** Redis restarted is seen within this (2 s between attempts in production). */
const RECONNECT_MAX_MS = 200;
/** A frozen Redis is pinged within this (2 s in production), and is down once the ping goes unanswered for 1.5 s. */
const HEARTBEAT_MS = 250;

async function quota(windowMs: number): Promise<{ redis: RedisConnection; store: RedisQuotaStore }> {
  const redis = createRedisConnection({
    url: server.url,
    logger: createLogger('silent'),
    metrics: createMetrics(),
    reconnectMaxMs: RECONNECT_MAX_MS,
    heartbeatMs: HEARTBEAT_MS,
  });
  connections.push(redis);
  await until(() => redis.isUp());
  const store = new RedisQuotaStore(redis, 'quota:test:', createMemoryQuota());
  // The two options the stores read; the rest are the limiter's.
  store.init({ windowMs } as Options);
  return { redis, store };
}

const hits = async (store: RedisQuotaStore, key: string) => (await store.increment(key)).totalHits;

describe('the quota store in Redis', () => {
  it('counts on from Redis’s count while Redis is frozen, and adds what it counted when Redis answers again, in the same window', async () => {
    const { redis, store } = await quota(60_000);
    expect([await hits(store, 'a'), await hits(store, 'a'), await hits(store, 'a')]).toEqual([1, 2, 3]);
    const endsAt = async () => Number(await inspector.call('PEXPIRETIME', 'quota:test:a'));
    const windowEnd = await endsAt();
    server.freeze();
    try {
      // No command of the store's is sent to the frozen server: the heartbeat finds it silent.
      await until(() => redis.state() === 'down');
      expect([await hits(store, 'a'), await hits(store, 'a'), await hits(store, 'a')]).toEqual([4, 5, 6]);
      expect(await hits(store, 'b')).toBe(1);
    } finally {
      server.thaw();
    }
    await until(() => redis.isUp());
    await until(async () => (await inspector.get('quota:test:a')) === '6');
    expect(await inspector.get('quota:test:b')).toBe('1');
    // The window went on: it ends when it did before Redis froze (a new one would end later).
    expect(await endsAt()).toBe(windowEnd);
    expect(await hits(store, 'a')).toBe(7);
    expect(await inspector.get('quota:test:a')).toBe('7');
  });

  it('carries nothing of a window that ended while Redis was away, and a window begun meanwhile into a Redis restarted empty', async () => {
    // Long enough for the restart below (on a loaded machine) and a reconnect attempt up to RECONNECT_MAX_MS later to come within the second window.
    const windowMs = 2_500;
    const { redis, store } = await quota(windowMs);
    expect([await hits(store, 'c'), await hits(store, 'c')]).toEqual([1, 2]);
    await server.kill();
    await until(() => redis.state() === 'down');
    const third = await store.increment('c');
    const other = await store.increment('d');
    expect([third.totalHits, other.totalHits]).toEqual([3, 1]);
    // Until both windows are over by the clock the store reads (a timer may fire a little before it says so).
    const over = Math.max(third.resetTime?.getTime() ?? 0, other.resetTime?.getTime() ?? 0);
    while (Date.now() <= over) await sleep(over - Date.now() + 1);
    // A new window, in memory.
    expect(await hits(store, 'c')).toBe(1);
    await server.restart();
    await until(() => redis.isUp());
    await until(async () => (await inspector.get('quota:test:c')) !== null);
    expect(await inspector.get('quota:test:c')).toBe('1');
    expect(await inspector.exists('quota:test:d')).toBe(0);
    const ttl = await inspector.pttl('quota:test:c');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThan(windowMs);
  });
});

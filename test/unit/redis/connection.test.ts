import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../../src/metrics.js';
import { createRedisConnection, type RedisState } from '../../../src/redis/connection.js';
import { startRedisServer, type RedisServer } from '../../helpers/redisServer.js';

// The connection's state against a real redis-server that dies and comes back: one log line per
// change however many reconnects fail in between, the gauge, and commands that fail at once
// while it is down instead of waiting for a reconnect.

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server.stop();
});

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 300 && !condition(); tries++) await sleep(10);
  expect(condition()).toBe(true);
}

describe('the Redis connection', () => {
  it('logs each change between up and down once, sets redis_up, fails commands at once while down, and reconnects', async () => {
    const lines: { msg: string; level: number }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const metrics = createMetrics();
    const redis = createRedisConnection({ url: server.url, logger: pino({ level: 'info' }, sink), metrics });
    const changes: RedisState[] = [];
    redis.onStateChange((state) => changes.push(state));
    const gauge = async () => (await metrics.registry.getSingleMetricAsString('redis_up')).split('\n').at(-1);
    try {
      await until(() => redis.isUp());
      expect(await gauge()).toBe('redis_up 1');
      expect(await redis.client.ping()).toBe('PONG');

      await server.kill();
      await until(() => redis.state() === 'down');
      expect(await gauge()).toBe('redis_up 0');
      // Several reconnect attempts fail meanwhile (every 100 ms to 2 s); none adds a line.
      await sleep(500);
      await expect(redis.client.get('anything')).rejects.toThrow();

      await server.restart();
      await until(() => redis.isUp());
      expect(await redis.client.ping()).toBe('PONG');
      expect(changes).toEqual(['up', 'down', 'up']);
      expect(lines.map((line) => line.msg.split(':')[0])).toEqual(['redis up', 'redis down', 'redis up']);
      expect(await gauge()).toBe('redis_up 1');
    } finally {
      await redis.close();
    }
  });
  it('counts a frozen server as down once commands go unanswered for 1.5 s, then fails commands at once, and is up when it answers', async () => {
    const lines: { msg: string; err?: { message: string } }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const redis = createRedisConnection({ url: server.url, logger, metrics: createMetrics() });
    try {
      await until(() => redis.isUp());
      server.freeze();
      const sent = Date.now();
      await expect(redis.client.get('anything')).rejects.toThrow('Command timed out');
      await until(() => redis.state() === 'down');
      // The connection was dropped 1.5 s after the first unanswered command.
      expect(Date.now() - sent).toBeGreaterThanOrEqual(1_450);
      expect(Date.now() - sent).toBeLessThan(3_000);
      const failing = Date.now();
      await expect(redis.client.get('anything')).rejects.toThrow();
      expect(Date.now() - failing).toBeLessThan(250);
      server.thaw();
      await until(() => redis.isUp());
      expect(await redis.client.ping()).toBe('PONG');
      expect(lines.map((line) => line.msg.split(':')[0])).toEqual(['redis up', 'redis down', 'redis up']);
      expect(lines[1]?.err?.message).toMatch(/didn't receive any in 1500ms/);
    } finally {
      server.thaw();
      await redis.close();
    }
  });
});

import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/metrics.js';
import { createRedisConnection } from '../../src/redis/connection.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { until } from '../helpers/waiting.js';

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

/** ioredis's refusal of a command while the connection is not ready (no offline queue): nothing was sent, nothing waited. */
const NOT_SENT = "Stream isn't writeable and enableOfflineQueue options is false";

describe('the Redis connection', () => {
  it('logs each change between up and down once, sets redis_up, refuses commands unsent while down, and reconnects', async () => {
    const lines: { msg: string; level: number }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const metrics = createMetrics();
    const redis = createRedisConnection({ url: server.url, logger: pino({ level: 'info' }, sink), metrics });
    const changes: string[] = [];
    redis.onStateChange((state) => changes.push(state));
    const gauge = async () => (await metrics.registry.getSingleMetricAsString('redis_up')).split('\n').at(-1);
    try {
      await until(() => redis.isUp());
      expect(await gauge()).toBe('redis_up 1');
      expect(await redis.client.ping()).toBe('PONG');

      let reconnects = 0;
      redis.client.on('reconnecting', () => reconnects++);
      await server.kill();
      await until(() => redis.state() === 'down');
      expect(await gauge()).toBe('redis_up 0');
      // Several reconnect attempts fail meanwhile (100 ms, 200 ms, … apart); none adds a line.
      await until(() => reconnects >= 3);
      expect(redis.state()).toBe('down');
      // Refused before it is sent, rather than queued until a reconnect or left to time out.
      await expect(redis.client.get('anything')).rejects.toThrow(NOT_SENT);

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
  it('counts a frozen server as down once the connection is silent for 1.5 s (not after one command timeout), then refuses commands unsent, and is up when it answers', async () => {
    const lines: { msg: string; err?: { message: string } }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const redis = createRedisConnection({ url: server.url, logger, metrics: createMetrics() });
    try {
      await until(() => redis.isUp());
      server.freeze();
      // The command's own timeout (500 ms) ends it while the connection still counts as up: one
      // unanswered command is no outage. Its state is read in the rejection handler itself, before
      // any later timer (the connection's silence timer among them) can run.
      const unanswered = await redis.client.get('anything').then(
        () => ({ message: 'answered', state: redis.state() }),
        (error: Error) => ({ message: error.message, state: redis.state() }),
      );
      expect(unanswered).toEqual({ message: 'Command timed out', state: 'up' });
      await until(() => redis.state() === 'down');
      // Dropped for its silence (1.5 s without a byte of answer), as the log says.
      expect(lines.map((line) => line.msg.split(':')[0])).toEqual(['redis up', 'redis down']);
      expect(lines[1]?.err?.message).toMatch(/didn't receive any in 1500ms/);
      // Down, a command is refused before it is sent instead of waiting out its timeout.
      await expect(redis.client.get('anything')).rejects.toThrow(NOT_SENT);
      server.thaw();
      await until(() => redis.isUp());
      expect(await redis.client.ping()).toBe('PONG');
      expect(lines.map((line) => line.msg.split(':')[0])).toEqual(['redis up', 'redis down', 'redis up']);
    } finally {
      server.thaw();
      await redis.close();
    }
  });
});

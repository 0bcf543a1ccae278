import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll } from 'vitest';
import { createLogger } from '../../src/config/logger.js';
import { createMetrics } from '../../src/metrics.js';
import { createRedisConnection, type RedisConnection } from '../../src/redis/connection.js';
import { startRedisServer, type RedisServer } from './redisServer.js';

/**
 * A redis-server for the whole suite (started before its tests, stopped after them) and a function
 * that opens one more connection to it, up when it resolves: each connection stands for an instance
 * of the service. Every connection is closed with the suite.
 */
export function redisForSuite(): { connect: () => Promise<RedisConnection> } {
  let server: RedisServer;
  const connections: RedisConnection[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
    await server.stop();
  });
  return {
    async connect() {
      const connection = createRedisConnection({ url: server.url, logger: createLogger('silent'), metrics: createMetrics() });
      connections.push(connection);
      while (!connection.isUp()) await sleep(10);
      return connection;
    },
  };
}

import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/config/logger.js';
import { createMetrics } from '../../../src/metrics.js';
import { createRedisConnection, type RedisConnection } from '../../../src/redis/connection.js';
import { createRedisOrigin } from '../../../src/stores/origin/redis.js';
import type { PersistedOrigin } from '../../../src/upstream/originStore.js';
import { startRedisServer, type RedisServer } from '../../helpers/redisServer.js';

// The shared origin against a real redis-server: what one instance adopts, another follows; what
// is not a choice on the channel (not JSON, or not the shape) is ignored, never thrown.

let server: RedisServer;
const connections: RedisConnection[] = [];

async function connect(): Promise<RedisConnection> {
  const connection = createRedisConnection({ url: server.url, logger: createLogger('silent'), metrics: createMetrics() });
  connections.push(connection);
  while (!connection.isUp()) await sleep(10);
  return connection;
}

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(connections.map((connection) => connection.close()));
  await server.stop();
});

describe('the shared origin', () => {
  it('follows the choices published on the channel and ignores what is not one', async () => {
    const [publisher, follower] = [await connect(), await connect()];
    const followed: PersistedOrigin[] = [];
    createRedisOrigin(follower).follow({ follow: async (choice) => void followed.push(choice) });
    // The subscriber subscribes once its connection is ready.
    await sleep(200);
    const choice: PersistedOrigin = { origin: 'https://mirror.example', movedFrom: null, reason: 'failover', adoptedAt: new Date(0).toISOString() };
    await publisher.client.publish('upstream:origin', '{"origin": "https://cut-off');
    await publisher.client.publish('upstream:origin', '{"origin": 42}');
    await createRedisOrigin(publisher).publish(choice);
    for (let i = 0; i < 100 && followed.length === 0; i++) await sleep(10);
    expect(followed).toEqual([choice]);
  });
});

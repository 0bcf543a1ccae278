import { describe, expect, it } from 'vitest';
import { createRedisOrigin } from '../../src/stores/origin/redis.js';
import type { PersistedOrigin } from '../../src/upstream/originStore.js';
import { redisForSuite } from '../helpers/redisSuite.js';
import { until } from '../helpers/waiting.js';

// The shared origin against a real redis-server: what one instance adopts, another follows; what
// is not a choice on the channel (not JSON, or not the shape) is ignored, never thrown.

const { connect } = redisForSuite();

describe('the shared origin', () => {
  it('follows the choices published on the channel and ignores what is not one', async () => {
    const [publisher, follower] = [await connect(), await connect()];
    const followed: PersistedOrigin[] = [];
    createRedisOrigin(follower).follow({ follow: async (choice) => void followed.push(choice) });
    // The subscriber subscribes once its connection is ready: until then a message would be lost.
    const subscribers = async () => ((await publisher.client.pubsub('NUMSUB', 'upstream:origin')) as [string, number])[1];
    await until(async () => (await subscribers()) > 0);
    expect(await subscribers()).toBe(1);
    const choice: PersistedOrigin = {
      origin: 'https://mirror.example',
      movedFrom: null,
      reason: 'failover',
      adoptedAt: new Date(0).toISOString(),
    };
    await publisher.client.publish('upstream:origin', '{"origin": "https://cut-off');
    await publisher.client.publish('upstream:origin', '{"origin": 42}');
    await createRedisOrigin(publisher).publish(choice);
    await until(() => followed.length > 0);
    expect(followed).toEqual([choice]);
  });
});

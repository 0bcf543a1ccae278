import type { RedisConnection } from '../../redis/connection.js';
import { PersistedOrigin, type OriginFollower, type SharedOrigin } from '../../upstream/originStore.js';

// With REDIS_URL, the origin one instance adopts (a failover, a move, a return to an earlier
// origin) is every instance's: it is stored in Redis and announced on a channel. The others follow
// an announcement at once, and read the stored choice whenever their connection comes (back) up,
// so a choice made while they were away is not missed.

const KEY = 'upstream:origin';
const CHANNEL = 'upstream:origin';

/** Redis down: the choice stays this instance's, and the stored one is read when Redis is back. */
export function createRedisOrigin(redis: RedisConnection): SharedOrigin {
  function followStored(pool: OriginFollower, text: string | null): void {
    if (text === null) return;
    let stored: unknown;
    try {
      stored = JSON.parse(text);
    } catch {
      // Not JSON (written by something else on the key or channel): no choice to follow. Thrown
      // here, in the subscriber's listener, it would take the whole process down.
      return;
    }
    const choice = PersistedOrigin.safeParse(stored);
    if (choice.success) void pool.follow(choice.data);
  }

  return {
    async publish(choice) {
      const text = JSON.stringify(choice);
      await redis.client
        .multi()
        .set(KEY, text)
        .publish(CHANNEL, text)
        .exec()
        .catch((error: unknown) => redis.fellBack('origin', error));
    },
    follow(pool) {
      const subscriber = redis.subscriber();
      subscriber.on('message', (_channel: string, text: string) => followStored(pool, text));
      subscriber.on('ready', () => {
        subscriber.subscribe(CHANNEL).catch((error: unknown) => redis.fellBack('origin', error));
      });
      redis.onStateChange((state) => {
        if (state !== 'up') return;
        redis.client.get(KEY).then(
          (text) => followStored(pool, text),
          (error: unknown) => redis.fellBack('origin', error),
        );
      });
    },
  };
}

import type { RedisConnection } from '../../redis/connection.js';
import { RememberedEntries } from './memory.js';
import type { FirstSeenBounds, FirstSeenStore } from '../../feeds/firstSeenStore.js';

// With REDIS_URL, every instance reads and writes the same first-seen times, so that two instances
// give an entry the same date: one key per id, set only if absent, its expiry pushed back each time
// a feed shows the id (so what no feed shows any more is forgotten after keepMs).

const KEY_PREFIX = 'feeds:first-seen:';

// KEYS: the ids' keys; ARGV[1]: keepMs; ARGV[1 + i]: the candidate time of KEYS[i]. Answers the stored times.
const CLAIM = `
local times = {}
for i, key in ipairs(KEYS) do
  redis.call('SET', key, ARGV[i + 1], 'NX')
  redis.call('PEXPIRE', key, ARGV[1])
  times[i] = redis.call('GET', key)
end
return times`;

/** Redis down or failing: this instance's memory, as one instance without Redis would remember. */
export function createRedisFirstSeen(redis: RedisConnection, bounds: FirstSeenBounds): FirstSeenStore {
  const local = new RememberedEntries(bounds);
  return {
    async claim(candidates, now) {
      if (redis.isUp()) {
        try {
          const keys = candidates.map(({ id }) => `${KEY_PREFIX}${id}`);
          const stored = (await redis.client.eval(
            CLAIM,
            keys.length,
            ...keys,
            bounds.keepMs,
            ...candidates.map(({ at }) => at),
          )) as string[];
          return new Map(candidates.map(({ id }, index) => [id, Number(stored[index])]));
        } catch (error) {
          redis.fellBack('first-seen', error);
        }
      }
      return local.claim(candidates, now).times;
    },
  };
}

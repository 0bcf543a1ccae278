import type { RedisConnection } from '../../redis/connection.js';
import { parseJsonReply } from '../../redis/replies.js';
import { settled } from '../../redis/settled.js';
import { OriginPaths, type SitePathsStore } from '../../upstream/sitePathsStore.js';

// With REDIS_URL, the paths one instance learns are every instance's: one hash field per origin.
// The DATA_DIR file keeps them too, and answers while Redis is down.

const KEY = 'upstream:paths';
/** The first read at start waits this long, at most, for the connection's first attempt to end. */
const CONNECT_WAIT_MS = 1_500;

export function createRedisSitePaths(redis: RedisConnection, file: SitePathsStore): SitePathsStore {
  return {
    async read(origin) {
      await settled(redis, CONNECT_WAIT_MS);
      try {
        const parsed = OriginPaths.safeParse(parseJsonReply((await redis.client.hget(KEY, origin)) ?? undefined));
        if (parsed.success) return parsed.data;
      } catch (error) {
        redis.fellBack('paths', error);
      }
      return file.read(origin);
    },
    async write(paths) {
      await Promise.all([
        file.write(paths),
        redis.client.hset(KEY, paths.origin, JSON.stringify(paths)).catch((error: unknown) => redis.fellBack('paths', error)),
      ]);
    },
  };
}

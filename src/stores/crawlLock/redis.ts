import { randomUUID } from 'node:crypto';
import type { CrawlLock } from '../../crawler/crawlLock.js';
import type { RedisConnection } from '../../redis/connection.js';
import { ownedLock } from '../../redis/ownedLock.js';

// One crawler across instances: a Redis key holding the crawling instance's token, set only when
// absent and expiring unless renewed. The crawler renews it before every step (and during its
// waits), so it lives for as long as its holder does; when the holder dies the key expires and the
// next instance to look takes it.

const KEY = 'crawler:lock';

/** `ttlMs`: a dead holder's lock is free after this. */
export function createRedisCrawlLock(redis: RedisConnection, ttlMs: number): CrawlLock {
  const lock = ownedLock(redis.client, KEY, randomUUID());
  return {
    async hold() {
      // Without Redis no one can tell who crawls: nobody does until it is back.
      if (!redis.isUp()) return false;
      return (await lock.renew(ttlMs)) || (await lock.take(ttlMs));
    },
    async release() {
      if (redis.isUp()) await lock.release();
    },
  };
}

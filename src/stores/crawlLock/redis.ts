import { randomUUID } from 'node:crypto';
import type { CrawlLock } from '../../crawler/crawlLock.js';
import type { RedisConnection } from '../../redis/connection.js';

// One crawler across instances: a Redis key holding the crawling instance's token, set only when
// absent and expiring unless renewed. The crawler renews it before every step (and during its
// waits), so it lives for as long as its holder does; when the holder dies the key expires and the
// next instance to look takes it.

const KEY = 'crawler:lock';

// Renews the lock only if it is still ours.
const RENEW_IF_OURS = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE_IF_OURS = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

/** `ttlMs`: a dead holder's lock is free after this. */
export function createRedisCrawlLock(redis: RedisConnection, ttlMs: number): CrawlLock {
  const token = randomUUID();
  return {
    async hold() {
      // Without Redis no one can tell who crawls: nobody does until it is back.
      if (!redis.isUp()) return false;
      const renewed = await redis.client.eval(RENEW_IF_OURS, 1, KEY, token, String(ttlMs));
      if (renewed === 1) return true;
      return (await redis.client.set(KEY, token, 'PX', ttlMs, 'NX')) === 'OK';
    },
    async release() {
      if (redis.isUp()) await redis.client.eval(RELEASE_IF_OURS, 1, KEY, token);
    },
  };
}

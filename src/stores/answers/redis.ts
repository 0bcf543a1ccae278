import { z } from 'zod';
import type { CatalogAnswer } from '../../catalog/answer.js';
import type { RedisConnection } from '../../redis/connection.js';
import { sharedOnce } from '../../redis/sharedOnce.js';
import type { SharedAnswers } from '../../catalog/answersStore.js';

// With REDIS_URL, the answer cache's second level: an answer one instance fetched is stored in
// Redis under the same key (parser version included) as its ready-to-send bytes, ETag, fetchedAt
// and TTL, until its stale window ends; and a page is fetched by one instance at a time (a lock
// per key), the others taking the answer it stores.

// The bytes are stored as they are, after one line of JSON (JSON never holds a raw newline).
const Header = z.object({
  etag: z.string(),
  fetchedAt: z.number(),
  ttlSeconds: z.number(),
  upstream: z.object({ url: z.string(), status: z.number(), attempts: z.number(), durationMs: z.number() }),
});
const NEWLINE = 0x0a;

/** The lock outlives the holder's own fetch deadline a little, so a slow but live holder keeps it. */
const LOCK_MARGIN_MS = 1_000;

export interface RedisAnswersOptions {
  redis: RedisConnection;
  /** How long past its TTL an answer may be served (CACHE_STALE_MAX_S): it expires in Redis then. */
  staleMaxMs: number;
  /** The page deadline (UPSTREAM_TIMEOUT_MS): how long a fetch holds the lock, and a waiter waits. */
  deadlineMs: number;
  /** The cache's clock, which fetchedAt reads. */
  now: () => number;
}

/** Redis down or failing: `fetchHere()`, as the memory implementation does (sharedOnce falls back). */
export function createRedisAnswers({ redis, staleMaxMs, deadlineMs, now }: RedisAnswersOptions): SharedAnswers {
  const answerKey = (key: string) => `answer:${key}`;
  const servableUntil = (answer: Pick<CatalogAnswer, 'fetchedAt' | 'ttlSeconds'>) => answer.fetchedAt + answer.ttlSeconds * 1000 + staleMaxMs;

  async function read(key: string, newerThan: number): Promise<CatalogAnswer | undefined> {
    const stored = await redis.client.getBuffer(answerKey(key));
    if (stored === null) return undefined;
    const split = stored.indexOf(NEWLINE);
    const header = Header.safeParse(JSON.parse(stored.subarray(0, split).toString()));
    if (!header.success || header.data.fetchedAt <= newerThan || servableUntil(header.data) <= now()) return undefined;
    return { ...header.data, body: stored.subarray(split + 1) };
  }

  async function write(key: string, { body, ...header }: CatalogAnswer): Promise<void> {
    const lifeMs = servableUntil(header) - now();
    if (lifeMs <= 0) return;
    await redis.client.set(answerKey(key), Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]), 'PX', Math.ceil(lifeMs));
  }

  return {
    async load(key, fetchHere, { newerThan = 0, onGiveUp }) {
      const outcome = await sharedOnce({
        redis,
        use: 'cache',
        lockKey: `lock:answer:${key}`,
        lockMs: deadlineMs + LOCK_MARGIN_MS,
        read: () => read(key, newerThan),
        produce: fetchHere,
        write: (answer) => write(key, answer),
        waitUntil: Date.now() + deadlineMs,
        onGiveUp,
      });
      return outcome.value;
    },
  };
}

import type { AnswersStore } from '../../catalog/answersStore.js';
import type { CatalogAnswer } from '../../catalog/answer.js';
import type { RedisConnection } from '../../redis/connection.js';
import { sharedOnce } from '../../redis/sharedOnce.js';
import type { AnswerFile } from './answerFile.js';
import { decodeAnswer, encodeAnswer, keptUntil, servableUntil, type AnswerLifetimes } from './storedAnswer.js';

// With REDIS_URL: each instance's DATA_DIR file, plus Redis for all of them. An answer one instance
// fetched is stored in Redis under the same key (parser version included) until it is no longer
// kept (its stale window, or STALE_IF_ERROR_S after its fetch, whichever is later), and a page is
// fetched by one instance at a time (a lock per key), the others taking the answer it stores. Every
// answer an instance fetches or takes from Redis goes into its own file too, so that a Redis outage
// costs an instance only the answers other instances fetched and it never read.

/** The lock outlives the holder's own fetch deadline a little, so a slow but live holder keeps it. */
const LOCK_MARGIN_MS = 1_000;

export interface RedisAnswersOptions {
  redis: RedisConnection;
  /** This instance's own copies: read first, and all that is left while Redis is down. */
  file: AnswerFile;
  lifetimes: AnswerLifetimes;
  /** The page deadline (UPSTREAM_TIMEOUT_S): how long a fetch holds the lock, and a waiter waits. */
  deadlineMs: number;
  /** The cache's clock, which fetchedAt reads. */
  now: () => number;
}

/** Redis down or failing: the file alone, as without REDIS_URL (sharedOnce falls back to fetching here). */
export function createRedisAnswers({ redis, file, lifetimes, deadlineMs, now }: RedisAnswersOptions): AnswersStore {
  const answerKey = (key: string) => `answer:${key}`;
  const servable = (answer: CatalogAnswer, newerThan: number) => answer.fetchedAt > newerThan && servableUntil(answer, lifetimes) > now();

  async function readShared(key: string): Promise<CatalogAnswer | undefined> {
    const stored = await redis.client.getBuffer(answerKey(key));
    return stored === null ? undefined : decodeAnswer(stored);
  }

  async function write(key: string, answer: CatalogAnswer): Promise<void> {
    const lifeMs = keptUntil(answer, lifetimes) - now();
    if (lifeMs <= 0) return;
    await redis.client.set(answerKey(key), encodeAnswer(answer), 'PX', Math.ceil(lifeMs));
  }

  return {
    async load(key, fetchHere, { newerThan = 0, onGiveUp, background = false }) {
      const own = file.read(key);
      if (own !== undefined && servable(own, newerThan)) return own;
      const outcome = await sharedOnce({
        redis,
        use: 'cache',
        lockKey: `lock:answer:${key}`,
        lockMs: deadlineMs + LOCK_MARGIN_MS,
        read: async () => {
          const shared = await readShared(key);
          return shared !== undefined && servable(shared, newerThan) ? shared : undefined;
        },
        produce: fetchHere,
        write: (answer) => write(key, answer),
        // A holder that died leaves its lock for a page deadline and the margin: a background fetch
        // outlives it and fetches here, where a user's request gives up at its own deadline.
        waitUntil: Date.now() + (background ? 2 * deadlineMs + LOCK_MARGIN_MS : deadlineMs),
        onGiveUp,
      });
      file.write(key, outcome.value);
      return outcome.value;
    },
    async kept(key) {
      const own = file.read(key);
      if (!redis.isUp()) return own;
      const shared = await readShared(key).catch((error: unknown) => {
        redis.fellBack('cache', error);
        return undefined;
      });
      if (shared === undefined || (own !== undefined && own.fetchedAt >= shared.fetchedAt)) return own;
      file.write(key, shared);
      return shared;
    },
    async drop(key) {
      file.delete(key);
      if (redis.isUp()) await redis.client.del(answerKey(key)).catch((error: unknown) => redis.fellBack('cache', error));
    },
  };
}

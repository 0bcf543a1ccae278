import { z } from 'zod';
import type { RedisConnection } from '../../redis/connection.js';
import { sharedOnce } from '../../redis/sharedOnce.js';
import type { Clearance } from '../../upstream/challenge/clearance.js';
import type { SharedClearances } from '../../upstream/challenge/clearanceStore.js';

// With REDIS_URL, a clearance one instance solved serves every instance: it is stored in Redis
// until it expires, and a solve is single-flight across instances (a lock per origin), so the
// wall sees one browser, not one per replica.

const ClearanceRecord = z.object({
  origin: z.string(),
  userAgent: z.string(),
  clientHints: z.record(z.string(), z.string()),
  cookies: z.array(
    z.object({
      name: z.string(),
      value: z.string(),
      domain: z.string(),
      path: z.string(),
      expires: z.number(),
      httpOnly: z.boolean(),
      secure: z.boolean(),
    }),
  ),
  obtainedAt: z.number(),
  expiresAt: z.number(),
}) satisfies z.ZodType<Clearance>;

/** A lock outlives the solve's own limit a little, so a slow but live holder keeps it. */
const LOCK_MARGIN_MS = 2_000;

/** Also reads and writes one clearance, which the tests use to see what is stored. */
export interface RedisClearances extends SharedClearances {
  /** The stored clearance of `origin`, if one is unexpired. */
  read(origin: string): Promise<Clearance | undefined>;
  write(clearance: Clearance): Promise<void>;
}

/** Redis down or failing: `solve` here, as the memory implementation does (sharedOnce falls back). */
export function createRedisClearances(redis: RedisConnection, solveTimeoutMs: number): RedisClearances {
  const key = (origin: string) => `clearance:${origin}`;

  async function read(origin: string): Promise<Clearance | undefined> {
    const stored = await redis.client.get(key(origin));
    if (stored === null) return undefined;
    const parsed = ClearanceRecord.safeParse(JSON.parse(stored));
    return parsed.success && parsed.data.expiresAt > Date.now() ? parsed.data : undefined;
  }

  async function write(clearance: Clearance): Promise<void> {
    const lifeMs = clearance.expiresAt - Date.now();
    if (lifeMs > 0) await redis.client.set(key(clearance.origin), JSON.stringify(clearance), 'PX', lifeMs);
  }

  return {
    read,
    write,
    async solveOnce(origin, used, solve) {
      const outcome = await sharedOnce({
        redis,
        use: 'clearance',
        lockKey: `lock:solve:${origin}`,
        lockMs: solveTimeoutMs + LOCK_MARGIN_MS,
        read: async () => {
          const stored = await read(origin);
          return stored !== undefined && (used === undefined || stored.obtainedAt > used.obtainedAt) ? stored : undefined;
        },
        produce: solve,
        write,
        waitUntil: Date.now() + solveTimeoutMs,
        onGiveUp: () => new Error(`another instance's solve for ${origin} did not finish within ${solveTimeoutMs} ms`),
      });
      return { clearance: outcome.value, solvedHere: outcome.producedHere };
    },
  };
}

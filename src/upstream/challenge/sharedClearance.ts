import { z } from 'zod';
import type { RedisConnection } from '../../redis/connection.js';
import { sharedOnce } from '../../redis/sharedOnce.js';
import type { Clearance } from './clearance.js';

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

export interface SharedClearances {
  /** The stored clearance of `origin`, if one is unexpired. */
  read(origin: string): Promise<Clearance | undefined>;
  write(clearance: Clearance): Promise<void>;
  /**
   * A clearance for `origin` newer than `used`: one another instance stored, else the result of
   * `solve`, run by one instance at a time across all of them.
   */
  solveOnce(origin: string, used: Clearance | undefined, solve: () => Promise<Clearance>): Promise<{ clearance: Clearance; solvedHere: boolean }>;
}

export function createSharedClearances(redis: RedisConnection, solveTimeoutMs: number): SharedClearances {
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

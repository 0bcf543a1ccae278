import type { Redis } from 'ioredis';

// A Redis key holding its owner's token: taken only when absent, and expiring by itself so that an
// owner that dies frees it. Only the owner still holding it renews or deletes it: it may have
// expired and been taken by another instance meanwhile.

const RENEW_IF_OURS = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE_IF_OURS = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

export interface OwnedLock {
  /** Takes the lock if no one holds it, for `ttlMs`. */
  take(ttlMs: number): Promise<boolean>;
  /** Extends the lock to `ttlMs` from now if this owner still holds it. */
  renew(ttlMs: number): Promise<boolean>;
  /** Whether this owner holds it (a take whose reply was lost may have taken it all the same). */
  held(): Promise<boolean>;
  /** Lets go of the lock if this owner still holds it. */
  release(): Promise<void>;
}

export function ownedLock(client: Redis, key: string, token: string): OwnedLock {
  return {
    take: async (ttlMs) => (await client.set(key, token, 'PX', ttlMs, 'NX')) === 'OK',
    renew: async (ttlMs) => (await client.eval(RENEW_IF_OURS, 1, key, token, String(ttlMs))) === 1,
    held: async () => (await client.get(key)) === token,
    release: async () => {
      await client.eval(RELEASE_IF_OURS, 1, key, token);
    },
  };
}

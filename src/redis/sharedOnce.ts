import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisConnection, RedisUse } from './connection.js';
import { ownedLock, type OwnedLock } from './ownedLock.js';

// One producer across all instances: whoever takes the lock (SET NX PX) produces the result and
// stores it; the others wait for it in Redis. The lock expires by itself, so a holder that dies
// frees it, and a waiter that sees it gone without a result takes it and produces itself.

/** How often a waiter looks for the result (one GET and one SET NX per look). */
const POLL_MS = 25;
/** How long looks may keep failing (commands timing out on a busy instance) before it produces itself. */
const FAILING_LOOKS_TOLERATED_MS = 2_000;

export interface SharedOnceOptions<T> {
  redis: RedisConnection;
  use: RedisUse;
  lockKey: string;
  /** How long the lock lives if its holder never releases it: the producer's own limit. */
  lockMs: number;
  /** A usable result already in Redis, or undefined. */
  read(): Promise<T | undefined>;
  /** Produces the result here (an upstream fetch, a solve); its errors go to the caller as they are. */
  produce(): Promise<T>;
  /** Stores what `produce` gave, for the others. */
  write(value: T): Promise<void>;
  /** The caller has its outcome by this time (ms since epoch), or `onGiveUp`'s error; the work itself goes on. */
  waitUntil: number;
  onGiveUp(): Error;
}

export interface SharedOutcome<T> {
  value: T;
  /** False when another instance (or an earlier run) produced it. */
  producedHere: boolean;
}

class GaveUp extends Error {}

/**
 * Produces once across instances. Redis failing at any step (or being down) never fails the
 * caller: it then produces locally, as an instance without Redis would. Waiting for another
 * instance and then producing here never takes the caller past `waitUntil`.
 */
export async function sharedOnce<T>(options: SharedOnceOptions<T>): Promise<SharedOutcome<T>> {
  if (!options.redis.isUp()) return { value: await options.produce(), producedHere: true };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(options.onGiveUp()), Math.max(0, options.waitUntil - Date.now()));
  });
  const work = produceOrWait(options);
  // Whoever stopped listening at the deadline, the work's outcome is still stored (or dropped) quietly.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function produceOrWait<T>(options: SharedOnceOptions<T>): Promise<SharedOutcome<T>> {
  const { redis, use } = options;
  const lock = ownedLock(redis.client, options.lockKey, randomUUID());
  try {
    const found = await waitForResultOrLock(options, lock);
    if (found !== undefined) return { value: found, producedHere: false };
  } catch (error) {
    if (error instanceof GaveUp) throw options.onGiveUp();
    redis.fellBack(use, error);
    return { value: await options.produce(), producedHere: true };
  }
  try {
    // The holder before us may have stored its result and let go of the lock between our last look
    // and our SET NX: one more look, now that no one else can be producing.
    const storedMeanwhile = await options.read().catch((error: unknown) => {
      redis.fellBack(use, error);
      return undefined;
    });
    if (storedMeanwhile !== undefined) return { value: storedMeanwhile, producedHere: false };
    const value = await options.produce();
    await options.write(value).catch((error: unknown) => redis.fellBack(use, error));
    return { value, producedHere: true };
  } finally {
    lock.release().catch((error: unknown) => redis.fellBack(use, error));
  }
}

/** The result when one shows up; undefined once this instance holds the lock. */
async function waitForResultOrLock<T>(options: SharedOnceOptions<T>, lock: OwnedLock): Promise<T | undefined> {
  // Set while looks fail: since when.
  for (let failingSince: number | undefined; ;) {
    try {
      const found = await options.read();
      if (found !== undefined) return found;
      if (await lock.take(options.lockMs)) return undefined;
      // A take whose reply timed out may have taken the lock all the same.
      if (failingSince !== undefined && (await lock.held())) return undefined;
      failingSince = undefined;
    } catch (error) {
      // A down Redis, or one that keeps failing: the caller produces here. A slow reply: look again.
      failingSince ??= Date.now();
      if (!options.redis.isUp() || Date.now() - failingSince >= FAILING_LOOKS_TOLERATED_MS) throw error;
    }
    const left = options.waitUntil - Date.now();
    if (left <= 0) throw new GaveUp();
    await sleep(Math.min(POLL_MS, left));
  }
}

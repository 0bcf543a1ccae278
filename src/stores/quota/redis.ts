import type { ClientRateLimitInfo, MemoryStore, Options } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { RedisConnection } from '../../redis/connection.js';
import type { QuotaStore } from '../../http/middleware/quotaStore.js';

// Adds the hits one instance counted while Redis was away to a counter (ARGV[1]), never leaving it
// below that instance's own count (ARGV[2]: a Redis restarted empty lost what came before), and
// gives a counter that has no expiry the window's time left (ARGV[3] ms), as the increment script
// (rate-limit-redis) would otherwise start a new window on it. Returns the count and its time left.
const CARRY_OVER = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
if count < tonumber(ARGV[2]) then
  count = tonumber(ARGV[2])
  redis.call('SET', KEYS[1], count, 'KEEPTTL')
end
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return { count, redis.call('PTTL', KEYS[1]) }`;

/** Counters carried over at once: one round trip each, written together. */
const CARRY_BATCH = 500;

interface GrantedAway {
  hits: number;
  /** The end of the window they were counted in (ms since epoch). */
  resetAt: number;
}

/**
 * The quota's counters in Redis (rate-limit-redis: one atomic script per request, so the count is
 * exact across instances), and in `memory` (the memory implementation) while Redis is down or
 * fails a command. Losing Redis starts no one's window again: memory holds the last count Redis
 * gave for each key, so counting goes on from it, in the same window; and when Redis is back, what
 * was counted here meanwhile is added to it before anything else is counted there. Across a loss a
 * client gets at most the quota times the number of instances.
 */
export class RedisQuotaStore implements QuotaStore {
  readonly localKeys = false;
  readonly prefix: string;
  private readonly shared: RedisStore;
  private readonly grantedAway = new Map<string, GrantedAway>();
  private sweepAt = 0;
  private options: Options | undefined;
  private sharedReady: Promise<void> | undefined;

  constructor(
    private readonly redis: RedisConnection,
    prefix: string,
    private readonly memory: MemoryStore,
  ) {
    this.prefix = prefix;
    this.shared = new RedisStore({
      prefix,
      sendCommand: (command: string, ...args: string[]) => redis.client.call(command, ...args) as Promise<RedisReply>,
    });
    // A restarted Redis has lost the store's scripts, and a load that failed while it was down
    // would be kept: load them again on every reconnect, and carry the counts over at once.
    redis.onStateChange((state) => {
      if (state !== 'up') return;
      this.sharedReady = undefined;
      if (this.options !== undefined) this.ready().catch((error: unknown) => redis.fellBack('quota', error));
    });
  }

  init(options: Options): void {
    this.options = options;
    this.memory.init(options);
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.either(
      (store) => store.get(key),
      () => this.memory.get(key),
    );
  }

  increment(key: string): Promise<ClientRateLimitInfo> {
    return this.either(
      async (store) => this.remember(key, await store.increment(key)),
      async () => this.countAway(key, await this.memory.increment(key)),
    );
  }

  decrement(key: string): Promise<void> {
    return this.either(
      (store) => store.decrement(key),
      () => this.memory.decrement(key),
    );
  }

  resetKey(key: string): Promise<void> {
    return this.either(
      (store) => store.resetKey(key),
      () => this.memory.resetKey(key),
    );
  }

  shutdown(): void {
    this.memory.shutdown();
  }

  private async either<T>(inRedis: (store: RedisStore) => Promise<T>, inMemory: () => Promise<T>): Promise<T> {
    if (!this.redis.isUp()) return inMemory();
    try {
      await this.ready();
      return await inRedis(this.shared);
    } catch (error) {
      this.redis.fellBack('quota', error);
      return inMemory();
    }
  }

  /** Keeps Redis's count where memory counts on from it if Redis goes: MemoryStore's own map, which drops it once its window is over. */
  private remember(key: string, info: ClientRateLimitInfo): ClientRateLimitInfo {
    if (info.resetTime !== undefined) this.memory.current.set(key, { totalHits: info.totalHits, resetTime: info.resetTime });
    return info;
  }

  private countAway(key: string, info: ClientRateLimitInfo): ClientRateLimitInfo {
    const resetAt = info.resetTime?.getTime() ?? 0;
    const away = this.grantedAway.get(key);
    if (away?.resetAt === resetAt) away.hits++;
    else this.grantedAway.set(key, { hits: 1, resetAt });
    // Once a window, the counts of windows that are over are dropped, so a long outage holds no more than memory does.
    const now = Date.now();
    if (now >= this.sweepAt) {
      this.sweepAt = now + (this.options?.windowMs ?? 0);
      for (const [ended, { resetAt: endedAt }] of this.grantedAway) if (endedAt <= now) this.grantedAway.delete(ended);
    }
    return info;
  }

  private async carryOver(): Promise<void> {
    const now = Date.now();
    const keys = [...this.grantedAway.keys()];
    for (let start = 0; start < keys.length; start += CARRY_BATCH) {
      await Promise.all(
        keys.slice(start, start + CARRY_BATCH).map(async (key) => {
          const away = this.grantedAway.get(key);
          if (away === undefined) return;
          const { hits, resetAt } = away;
          if (resetAt > now) {
            const here = this.memory.current.get(key) ?? this.memory.previous.get(key);
            const floor = here?.resetTime.getTime() === resetAt ? here.totalHits : hits;
            const [count, ttl] = (await this.redis.client.eval(CARRY_OVER, 1, `${this.prefix}${key}`, hits, floor, resetAt - now)) as [
              number,
              number,
            ];
            this.remember(key, { totalHits: count, resetTime: new Date(Date.now() + ttl) });
          }
          // Hits counted here while the script ran (Redis failing again meanwhile) stay to be carried.
          away.hits -= hits;
          if (away.hits === 0 && this.grantedAway.get(key) === away) this.grantedAway.delete(key);
        }),
      );
    }
  }

  private ready(): Promise<void> {
    if (this.sharedReady === undefined) {
      const loading = this.shared.init(this.options as Options).then(() => this.carryOver());
      loading.catch(() => {
        if (this.sharedReady === loading) this.sharedReady = undefined;
      });
      this.sharedReady = loading;
    }
    return this.sharedReady;
  }
}

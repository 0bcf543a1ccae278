import type { ClientRateLimitInfo, MemoryStore, Options } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { RedisConnection } from '../../redis/connection.js';
import type { QuotaStore } from './store.js';

/**
 * The quota's counters in Redis (rate-limit-redis: one atomic script per request, so the count is
 * exact across instances), and in `memory` (the memory implementation) while Redis is down or
 * fails a command. It only delegates: when Redis is back, counting goes back to it, and what was
 * counted in memory meanwhile stays in memory.
 */
export class RedisQuotaStore implements QuotaStore {
  readonly localKeys = false;
  readonly prefix: string;
  private readonly shared: RedisStore;
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
    // would be kept: load them again on every reconnect.
    redis.onStateChange((state) => {
      if (state === 'up') this.sharedReady = undefined;
    });
  }

  init(options: Options): void {
    this.options = options;
    this.memory.init(options);
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.either((store) => store.get(key), () => this.memory.get(key));
  }

  increment(key: string): Promise<ClientRateLimitInfo> {
    return this.either((store) => store.increment(key), () => this.memory.increment(key));
  }

  decrement(key: string): Promise<void> {
    return this.either((store) => store.decrement(key), () => this.memory.decrement(key));
  }

  resetKey(key: string): Promise<void> {
    return this.either((store) => store.resetKey(key), () => this.memory.resetKey(key));
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

  private ready(): Promise<void> {
    if (this.sharedReady === undefined) {
      const loading = this.shared.init(this.options as Options);
      loading.catch(() => {
        if (this.sharedReady === loading) this.sharedReady = undefined;
      });
      this.sharedReady = loading;
    }
    return this.sharedReady;
  }
}

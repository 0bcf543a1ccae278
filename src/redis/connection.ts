import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';
import type { Logger } from '../config/logger.js';
import type { Metrics } from '../metrics.js';

// The one Redis connection of an instance (REDIS_URL), shared by every Redis implementation under
// src/stores (quotas, answers and their lock, clearance, origin, site paths, status history, reports, the catalog, first-seen dates).
// Whoever uses it asks `isUp()` first and falls back to memory when Redis is down; a command
// never waits for a reconnect, so a down Redis costs a request nothing but the fallback. A Redis
// that stops answering (frozen, or cut off without a reset) counts as down as one that is gone.

type RedisState = 'connecting' | 'up' | 'down';

/** What the Redis implementations need: the client, the state to fall back on, and the fallback count. */
export interface RedisConnection {
  readonly client: Redis;
  isUp(): boolean;
  state(): RedisState;
  /** Called on every change between up and down (not for the first "connecting"). */
  onStateChange(listener: (state: RedisState) => void): void;
  /** Counts an operation that fell back to memory because Redis failed it (by what it was for). */
  fellBack(use: RedisUse, error: unknown): void;
  /** A second connection for SUBSCRIBE (a subscribed connection can run nothing else). */
  subscriber(): Redis;
  close(): Promise<void>;
}

export type RedisUse = 'quota' | 'cache' | 'lock' | 'clearance' | 'origin' | 'paths' | 'first-seen' | 'reports';

/** Short enough that a request never waits long on a Redis that stopped answering. */
const CONNECT_TIMEOUT_MS = 1_000;
const COMMAND_TIMEOUT_MS = 500;
/**
 * A connection that leaves its commands without a byte of answer this long (three command timeouts)
 * is dropped: Redis is then down at once, every later command fails at once instead of waiting out
 * its own timeout, and the reconnects below are the background check that brings it back.
 */
const SILENCE_MS = 3 * COMMAND_TIMEOUT_MS;
/** Redis is pinged this often, so that one frozen while no request uses it is noticed too. */
const HEARTBEAT_MS = 2_000;
/**
 * Reconnect backoff: 100 ms, 200 ms, … up to 2 s between attempts, for ever. Each attempt is up
 * only once ioredis's ready check (INFO) is answered within the command timeout.
 */
const RECONNECT_MAX_MS = 2_000;

const REDIS_OPTIONS: RedisOptions = {
  // Never queue commands while disconnected: they would pile up and answer late; fail at once instead.
  enableOfflineQueue: false,
  // A command under way when the connection drops fails at once rather than being resent later.
  maxRetriesPerRequest: 0,
  connectTimeout: CONNECT_TIMEOUT_MS,
  commandTimeout: COMMAND_TIMEOUT_MS,
  socketTimeout: SILENCE_MS,
};

export interface RedisConnectionOptions {
  url: string;
  logger: Logger;
  metrics: Metrics;
  /** The longest wait between reconnect attempts; tests shorten it to see a restarted Redis soon. */
  reconnectMaxMs?: number;
  /** How often Redis is pinged while no command is sent; tests shorten it to see a frozen Redis soon. */
  heartbeatMs?: number;
}

/**
 * Connects to REDIS_URL. ioredis is loaded here, on first use, so that an instance without
 * REDIS_URL never loads a Redis client at all.
 */
export function createRedisConnection({
  url,
  logger,
  metrics,
  reconnectMaxMs = RECONNECT_MAX_MS,
  heartbeatMs = HEARTBEAT_MS,
}: RedisConnectionOptions): RedisConnection {
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const client = new RedisClient(url, { ...REDIS_OPTIONS, retryStrategy: (attempt: number) => Math.min(attempt * 100, reconnectMaxMs) });
  const listeners: ((state: RedisState) => void)[] = [];
  const subscribers: Redis[] = [];
  let state: RedisState = 'connecting';
  let closing = false;
  // The Redis metrics exist only on instances that use Redis.
  metrics.registry.registerMetric(metrics.redisUp);
  metrics.registry.registerMetric(metrics.redisFallbacks);
  metrics.redisUp.set(0);

  function change(next: 'up' | 'down', error?: unknown): void {
    if (state === next || closing) return;
    state = next;
    metrics.redisUp.set(next === 'up' ? 1 : 0);
    if (next === 'up') logger.info({ redis: redactedUrl(url) }, 'redis up: sharing quotas, cache, locks, clearance and origin');
    else logger.warn({ redis: redactedUrl(url), err: error }, 'redis down: quotas and cache fall back to this instance’s memory');
    for (const listener of listeners) listener(next);
  }

  let lastError: unknown;
  client.on('ready', () => change('up'));
  // ioredis emits an error per failed (re)connect attempt; the state change is what gets logged.
  client.on('error', (error: unknown) => {
    lastError = error;
    if (state === 'connecting') change('down', error);
  });
  client.on('close', () => change('down', lastError));
  // Its failure is the silence above, which the 'close' handler reports.
  const heartbeat = setInterval(() => {
    if (state === 'up') client.ping().catch(() => undefined);
  }, heartbeatMs);
  heartbeat.unref();

  return {
    client,
    isUp: () => state === 'up',
    state: () => state,
    onStateChange: (listener) => listeners.push(listener),
    fellBack(use, error) {
      metrics.redisFallbacks.inc({ use });
      logger.debug({ err: error, use }, 'redis operation failed; used memory instead');
    },
    subscriber() {
      const connection = client.duplicate();
      connection.on('error', () => undefined);
      subscribers.push(connection);
      return connection;
    },
    async close() {
      closing = true;
      clearInterval(heartbeat);
      for (const connection of [client, ...subscribers]) connection.disconnect();
    },
  };
}

/** The URL without its password, for the logs. */
function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}

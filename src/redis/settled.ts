import type { RedisConnection } from './connection.js';

/**
 * Resolves once the connection's first attempt has ended, up or down, or after `limitMs`: what is
 * read once at start (the status history, the CLI's listing) then reads Redis rather than failing
 * on a connection still being made.
 */
export function settled(redis: RedisConnection, limitMs: number): Promise<void> {
  if (redis.state() !== 'connecting') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, limitMs);
    timer.unref();
    redis.onStateChange(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

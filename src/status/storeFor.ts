import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { Logger } from '../config/logger.js';
import type { RedisConnection } from '../redis/connection.js';
import { createFileStatusStore } from './fileStore.js';
import { createRedisStatusStore } from './redisStore.js';
import type { StatusHistoryStore } from './store.js';

/** With REDIS_URL the history every instance shares; otherwise DATA_DIR/status-history.jsonl. */
export function statusHistoryStore(config: Config, logger: Logger, redis: RedisConnection | undefined): StatusHistoryStore {
  return redis === undefined
    ? createFileStatusStore(join(config.DATA_DIR, 'status-history.jsonl'), logger)
    : createRedisStatusStore(redis, logger);
}

import type { Config } from '../config/schema.js';
import type { Logger } from '../config/logger.js';
import type { RedisConnection } from '../redis/connection.js';
import { FIRST_SEEN_BOUNDS, type FirstSeenStore } from './firstSeen.js';
import { memoryFirstSeen } from './memoryFirstSeen.js';

export function firstSeenStore(_config: Config, _logger: Logger, _redis: RedisConnection | undefined): FirstSeenStore {
  return memoryFirstSeen(FIRST_SEEN_BOUNDS);
}

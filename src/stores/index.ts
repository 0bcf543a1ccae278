import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import type { Logger } from '../config/logger.js';
import type { Metrics } from '../metrics.js';
import { createRedisConnection, type RedisConnection, type RedisConnectionOptions } from '../redis/connection.js';
import { openAnswerFile } from './answers/answerFile.js';
import { createSqliteAnswers } from './answers/sqlite.js';
import { createRedisAnswers } from './answers/redis.js';
import { keptUntil, type AnswerLifetimes } from './answers/storedAnswer.js';
import type { AnswersStore } from '../catalog/answersStore.js';
import { createMemoryClearances } from './clearance/memory.js';
import { createRedisClearances } from './clearance/redis.js';
import type { SharedClearances } from '../upstream/challenge/clearanceStore.js';
import { SOLVE_TIMEOUT_MS } from '../upstream/challenge/solver.js';
import { createMemoryOrigin } from './origin/memory.js';
import { createRedisOrigin } from './origin/redis.js';
import type { OriginStore, SharedOrigin } from '../upstream/originStore.js';
import { createFileOrigin } from './origin/file.js';
import { createFileSitePaths } from './sitePaths/file.js';
import { createRedisSitePaths } from './sitePaths/redis.js';
import type { SitePathsStore } from '../upstream/sitePathsStore.js';
import { createMemoryQuota } from './quota/memory.js';
import { RedisQuotaStore } from './quota/redis.js';
import type { QuotaStore } from '../http/middleware/quotaStore.js';
import { createFileReports } from './reports/file.js';
import { createRedisReports } from './reports/redis.js';
import type { SharedReports } from '../reports/store.js';
import { createFileFirstSeen } from './firstSeen/file.js';
import { createRedisFirstSeen } from './firstSeen/redis.js';
import { FIRST_SEEN_BOUNDS, type FirstSeenStore } from '../feeds/firstSeenStore.js';
import { createFileStatusStore } from './statusHistory/file.js';
import { createRedisStatusStore } from './statusHistory/redis.js';
import type { StatusHistoryStore } from '../status/historyStore.js';
import type { CatalogStore } from '../crawler/catalogStore.js';
import { CRAWL_LOCK_TIMING, type CrawlLock } from '../crawler/crawlLock.js';
import { createRedisCatalogStore } from './catalog/redis.js';
import { createSqliteCatalogStore } from './catalog/sqlite.js';
import { createSoleCrawlLock } from './crawlLock/memory.js';
import { createRedisCrawlLock } from './crawlLock/redis.js';

// Every thing instances share follows one pattern: an interface beside the code that uses it, the
// embedded default (<thing>/memory.ts, or <thing>/file.ts or <thing>/sqlite.ts in DATA_DIR where it
// must outlive a restart), and a Redis implementation (<thing>/redis.ts) that falls back to the
// embedded one's behaviour while Redis is down. This is the one place that picks between them, from
// REDIS_URL.

export interface SharedStores {
  /** The Redis connection when REDIS_URL is set, for /health and /metrics; undefined otherwise. */
  readonly redis: RedisConnection | undefined;
  /** A per-client quota's counters; `prefix` keeps one quota's keys apart from another's in Redis. */
  quota(prefix: string): QuotaStore;
  /** The catalog's answers: kept in DATA_DIR (and shared through Redis), served again after a restart and when the upstream fails. */
  readonly answers: AnswersStore;
  readonly clearances: SharedClearances;
  readonly origin: SharedOrigin;
  /** This instance's adopted upstream origin, kept in DATA_DIR across restarts. */
  readonly originFile: OriginStore;
  /** The site's paths learned per origin: DATA_DIR, and Redis for every instance. */
  readonly sitePaths: SitePathsStore;
  readonly statusHistory: StatusHistoryStore;
  readonly reports: SharedReports;
  /** When feed entries without a release date were first seen (a DATA_DIR file without Redis). */
  readonly firstSeen: FirstSeenStore;
  /** The crawler's local catalog (DATA_DIR/catalog.sqlite without Redis), and who crawls it. */
  readonly catalog: CatalogStore;
  readonly crawlLock: CrawlLock;
  close(): Promise<void>;
}

export interface SharedStoresOptions {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  /** The answer cache's clock, which the shared answers' freshness reads. */
  now: () => number;
  /** How long a dead crawler's Redis lock outlives it; tests shorten it. */
  crawlLockTtlMs?: number;
  /** How soon the Redis connection sees a frozen Redis and tries a lost one again; tests shorten them. */
  redisTiming?: RedisTiming;
}

export type RedisTiming = Pick<RedisConnectionOptions, 'heartbeatMs' | 'reconnectMaxMs'>;

export function createSharedStores({
  config,
  logger,
  metrics,
  now,
  crawlLockTtlMs = CRAWL_LOCK_TIMING.ttlMs,
  redisTiming,
}: SharedStoresOptions): SharedStores {
  const lifetimes: AnswerLifetimes = { staleMaxMs: config.STALE_WHILE_REVALIDATE_S * 1000, keepMs: config.STALE_IF_ERROR_S * 1000 };
  const answerFile = openAnswerFile({
    path: join(config.DATA_DIR, ANSWERS_FILE),
    maxBytes: config.ANSWER_STORE_MAX_MB * 1024 * 1024,
    keepUntil: (answer) => keptUntil(answer, lifetimes),
    now,
    logger,
  });
  // Unset REDIS_URL: everything stays in this instance (memory and DATA_DIR), and no Redis client is loaded.
  if (config.REDIS_URL === undefined) {
    const firstSeen = createFileFirstSeen(join(config.DATA_DIR, FIRST_SEEN_FILE), FIRST_SEEN_BOUNDS, logger);
    const catalog = createSqliteCatalogStore(config.DATA_DIR, logger);
    return {
      redis: undefined,
      quota: () => createMemoryQuota(),
      answers: createSqliteAnswers({ file: answerFile, lifetimes, now }),
      clearances: createMemoryClearances(),
      origin: createMemoryOrigin(),
      originFile: createFileOrigin(config.DATA_DIR, logger),
      sitePaths: createFileSitePaths(config.DATA_DIR, logger),
      statusHistory: createFileStatusStore(join(config.DATA_DIR, STATUS_HISTORY_FILE), logger),
      reports: createFileReports(config.DATA_DIR, logger),
      firstSeen,
      catalog,
      crawlLock: createSoleCrawlLock(),
      close: async () => {
        await firstSeen.close();
        answerFile.close();
        await catalog.close();
      },
    };
  }
  const redis = createRedisConnection({ url: config.REDIS_URL, logger, metrics, ...redisTiming });
  const reports = createRedisReports(redis, createFileReports(config.DATA_DIR, logger), logger);
  return {
    redis,
    quota: (prefix) => new RedisQuotaStore(redis, prefix, createMemoryQuota()),
    answers: createRedisAnswers({ redis, file: answerFile, lifetimes, deadlineMs: config.UPSTREAM_TIMEOUT_S * 1000, now }),
    clearances: createRedisClearances(redis, SOLVE_TIMEOUT_MS),
    origin: createRedisOrigin(redis),
    originFile: createFileOrigin(config.DATA_DIR, logger),
    sitePaths: createRedisSitePaths(redis, createFileSitePaths(config.DATA_DIR, logger)),
    statusHistory: createRedisStatusStore(redis, logger),
    reports,
    firstSeen: createRedisFirstSeen(redis, FIRST_SEEN_BOUNDS),
    catalog: createRedisCatalogStore(redis),
    crawlLock: createRedisCrawlLock(redis, crawlLockTtlMs),
    close: async () => {
      await reports.close();
      await redis.close();
      answerFile.close();
    },
  };
}

const STATUS_HISTORY_FILE = 'status-history.jsonl';
const FIRST_SEEN_FILE = 'feed-first-seen.jsonl';
const ANSWERS_FILE = 'answers.sqlite';

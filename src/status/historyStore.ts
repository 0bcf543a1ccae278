import type { StatusRecord } from './records.js';

/**
 * Where the status history lives. Its embedded default is DATA_DIR's JSON lines (file.ts), not
 * memory, since the page shows 90 days across restarts; with REDIS_URL, Redis (redis.ts), so that
 * every instance shows the same history.
 */
export interface StatusHistoryStore {
  /**
   * The records appended after `cursor` (every kept record when it is null), oldest first, and the
   * cursor to pass next time. Unreadable records are skipped with a warning.
   */
  read(cursor: string | null): Promise<{ records: StatusRecord[]; cursor: string }>;
  append(records: readonly StatusRecord[]): Promise<void>;
  /** Drops what is older than `keepFrom` (ms since the epoch); cursors handed out before are void. */
  prune(keepFrom: number): Promise<void>;
}

/** Where a store tells of skipped records. */
export interface StatusStoreLog {
  warn(fields: object, message: string): void;
}

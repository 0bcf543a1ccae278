/**
 * Who crawls. Alone, this instance always does; with REDIS_URL one instance at a time holds a lock
 * that expires unless renewed, so that another takes over soon after the crawling one dies.
 */
export interface CrawlLock {
  /** Takes the lock when it is free, renews it when it is ours; true while this instance may crawl. */
  hold(): Promise<boolean>;
  /** Lets go of it, if ours. */
  release(): Promise<void>;
}

/** How long a dead holder keeps the lock, and how often an instance that does not crawl tries it. */
export interface CrawlLockTiming {
  ttlMs: number;
  retryMs: number;
}

/** A dead holder's lock is free after 30 s; with the others trying every 10 s, one takes over within a minute. */
export const CRAWL_LOCK_TIMING: CrawlLockTiming = { ttlMs: 30_000, retryMs: 10_000 };

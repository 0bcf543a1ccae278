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

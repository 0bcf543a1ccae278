import type { CatalogAnswer } from './answer.js';

/**
 * The catalog's answers below the local LRU (src/catalog/cache.ts): every answer fetched is kept
 * (in DATA_DIR, and with REDIS_URL in Redis for every instance) as long as it may be served, and for
 * STALE_IF_ERROR_S after its fetch to stand in when the upstream fails.
 */
export interface AnswersStore {
  /**
   * The answer of `key`: one kept here or by another instance that may still be served (fetched
   * after `newerThan`, for a refresh of an answer of that age), else `fetchHere()`'s, fetched by one
   * instance at a time and kept. The caller has its outcome within the page deadline, or `onGiveUp()`'s error;
   * a `background` caller (the crawler) waits out another instance's fetch that never ends (the
   * instance died holding its lock) and then fetches here, since nobody waits for it.
   */
  load(
    key: string,
    fetchHere: () => Promise<CatalogAnswer>,
    options: { newerThan?: number; onGiveUp: () => Error; background?: boolean },
  ): Promise<CatalogAnswer>;
  /** The newest answer kept for `key`, however old, for when its fetch failed; undefined when none is kept. */
  kept(key: string): Promise<CatalogAnswer | undefined>;
  /** Forgets the answer of `key` everywhere it is kept: the page is gone upstream. */
  drop(key: string): Promise<void>;
}

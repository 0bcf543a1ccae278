import { LRUCache } from 'lru-cache';
import type { CatalogAnswer } from './answer.js';

export type Freshness = 'fresh' | 'stale';

export interface CacheOptions {
  maxBytes: number;
  /** How long past its TTL an entry may still be served while it is refreshed. */
  staleMaxMs: number;
  now?: () => number;
}

type Loader = () => Promise<CatalogAnswer>;

/**
 * What an entry costs beyond its body, etag and key, so that the byte bound is the memory the cache
 * takes in the running service (its RSS), not only what a heap snapshot shows: the answer object,
 * its Buffer and ArrayBuffer, the strings and lru-cache's slots; the old space V8 keeps committed
 * around them; the native memory of each buffer; and, with the cache full and evicting, evicted
 * answers that wait in the old space for the next major collection.
 * @internal exported for the tests: the cache tests size entries against the byte budget with it.
 */
export const ENTRY_OVERHEAD_BYTES = 1_200;

/**
 * Byte-bounded LRU of answers with stale-while-revalidate. lru-cache's fetch() does the hard
 * parts: concurrent loads of one key share one promise (single-flight, refreshes included), a
 * failed load never stores anything, and a failed refresh keeps the entry it was replacing.
 * Freshness is ours (fetchedAt + TTL), since lru-cache's own TTL has no "stale for at most" window.
 */
export class AnswerCache {
  private readonly lru: LRUCache<string, CatalogAnswer, Loader>;
  private readonly staleMaxMs: number;
  private readonly now: () => number;

  constructor({ maxBytes, staleMaxMs, now = Date.now }: CacheOptions) {
    this.staleMaxMs = staleMaxMs;
    this.now = now;
    this.lru = new LRUCache<string, CatalogAnswer, Loader>({
      maxSize: maxBytes,
      sizeCalculation: (answer, key) => answer.body.length + answer.etag.length + key.length + ENTRY_OVERHEAD_BYTES,
      fetchMethod: (_key, _stale, { context }) => context(),
      noDeleteOnFetchRejection: true,
      // An entry evicted while its refresh runs still gets the refreshed answer stored.
      ignoreFetchAbort: true,
    });
  }

  /** The answer for `key` if it may be served now: fresh, or stale within the stale window. */
  lookup(key: string): { answer: CatalogAnswer; freshness: Freshness } | undefined {
    const answer = this.lru.get(key);
    if (answer === undefined) return undefined;
    const freshness = this.freshness(answer);
    return freshness === undefined ? undefined : { answer, freshness };
  }

  /** Whether `answer` is fresh or stale now; undefined past its stale window. */
  freshness(answer: CatalogAnswer): Freshness | undefined {
    const age = this.now() - answer.fetchedAt;
    const ttlMs = answer.ttlSeconds * 1000;
    if (age < ttlMs) return 'fresh';
    if (age < ttlMs + this.staleMaxMs) return 'stale';
    return undefined;
  }

  /** Loads `key` (joining a load already under way) and stores the answer; a failure stores nothing. */
  load(key: string, loader: Loader): Promise<CatalogAnswer> {
    return this.lru.fetch(key, { forceRefresh: true, allowStale: false, context: loader }) as Promise<CatalogAnswer>;
  }

  /** Starts one background refresh of `key` unless one is running; the current entry stays until it succeeds. */
  refresh(key: string, loader: Loader): void {
    void this.lru.fetch(key, { forceRefresh: true, allowStale: true, context: loader });
  }

  /** The answer held for `key`, however old (past its stale window too), without marking it used. */
  kept(key: string): CatalogAnswer | undefined {
    return this.lru.peek(key, { allowStale: true });
  }

  /** Holds `answer` for `key` as if it had been loaded (an answer kept elsewhere, served again). */
  remember(key: string, answer: CatalogAnswer): void {
    this.lru.set(key, answer);
  }

  /** Forgets `key` (the page is gone upstream). */
  delete(key: string): void {
    this.lru.delete(key);
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.lru.size, bytes: this.lru.calculatedSize };
  }
}

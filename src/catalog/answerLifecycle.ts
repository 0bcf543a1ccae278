import { LRUCache } from 'lru-cache';
import type { Logger } from '../config/logger.js';
import { StaleReason, type ErrorCode } from '../contract/schemas.js';
import { PARSER_VERSION } from '../parsers/version.js';
import type { FetchPriority } from '../upstream/client.js';
import { UpstreamUnreadablePageError } from '../upstream/errors.js';
import { type AnswerCall, type CatalogAnswer, type NoSideEffects, staleAnswer, type UpstreamFacts } from './answer.js';
import type { AnswersStore } from './answersStore.js';
import type { AnswerCache, Freshness } from './cache.js';
import type { AnyEndpoint } from './endpoints/index.js';

/**
 * The contract's X-Cache, one meaning each. HIT: within its TTL, from what the service keeps (memory,
 * DATA_DIR, or Redis: whichever instance fetched it). MISS: fetched from the site by this instance
 * for this request (alone, or with the requests that asked at the same moment). STALE: past its TTL,
 * served without waiting for the site; `staleReason` (the body's `meta.stale`) is set when the site
 * failed, and absent while one refresh runs.
 */
type CacheStatus = 'HIT' | 'MISS' | 'STALE';

export interface CatalogResult {
  answer: CatalogAnswer;
  cacheStatus: CacheStatus;
  /** Set when the site failed and `answer` is the copy kept for outages: the failure's code. */
  staleReason?: StaleReason;
  /** Set on a MISS whose answer this instance fetched (the miss's own fetch, or one it joined): what the upstream did. */
  upstream?: UpstreamFacts;
}

/** Since when answers have been served from the copies kept for outages, without a successful fetch since. */
export interface LastGoodState {
  /** When the first of them was served (ms since epoch). */
  since: number;
  /** When the latest was served, and why. */
  lastAt: number;
  lastReason: StaleReason;
  served: number;
}

/**
 * An answer's life, per key (cacheKey):
 * - fresh (within its TTL): served as it is, HIT;
 * - stale (past its TTL, within STALE_WHILE_REVALIDATE_S): served at once, STALE, while one background
 *   refresh runs; once a refresh failed because of the site, served as the kept copy (meta.stale)
 *   until one succeeds; a refresh that finds the page gone drops it;
 * - past that, or never fetched: one fetch, shared by every request at the same moment, MISS; when
 *   the site fails, the copy kept for outages (within STALE_IF_ERROR_S, in memory or in the answers
 *   store) is served instead, STALE with meta.stale, and the key is failed-recently;
 * - failed-recently: its kept copy is served at once, and its page is tried again in the background
 *   at most once per FAILED_FETCH_RETRY_MS; the first success ends it;
 * - unreadable (too large, cut off, not parsed in time): the same error for FAILED_PAGE_MEMORY_MS,
 *   without a fetch;
 * - gone (the site's 404): dropped from memory and from the answers store.
 */
export interface AnswerLifecycle {
  /**
   * The answer to a counted request: the one held (synchronously), or one fetch. Without side
   * effects: the one held, if any; the metrics and /status count nothing.
   */
  answer: AnswerCall<[endpoint: AnyEndpoint, input: Record<string, unknown>], CatalogResult, CatalogResult | Promise<CatalogResult>>;
  /**
   * One fetch, whatever is held, as a miss goes: shared with concurrent fetches of the same key.
   * With REDIS_URL, another instance's answer stands in only if it was fetched after `newerThan`.
   * A `background` fetch (the crawler's) lets every user's fetch take an upstream connection first.
   */
  fetch(endpoint: AnyEndpoint, input: Record<string, unknown>, newerThan?: number, priority?: FetchPriority): Promise<CatalogResult>;
  /** Whether answers are being served from the copies kept for outages, and since when; undefined when not. */
  lastGood(): LastGoodState | undefined;
}

/** An answer this instance fetched from the site, with what the upstream did. */
export interface FetchedAnswer {
  answer: CatalogAnswer;
  upstream: UpstreamFacts;
}

export interface AnswerLifecycleDeps {
  cache: AnswerCache;
  /** Where answers are kept below the cache: DATA_DIR, and Redis for every instance (src/stores/index.ts picks it). */
  answers: AnswersStore;
  /** The endpoint's page fetched from the site and parsed into an answer. */
  fetchAnswer: (endpoint: AnyEndpoint, input: Record<string, unknown>, priority: FetchPriority) => Promise<FetchedAnswer>;
  /** The error of a wait for another instance's fetch that outlasted the page deadline. */
  gaveUp: (endpoint: AnyEndpoint, input: Record<string, unknown>) => Error;
  logger: Logger;
  /** The cache's clock: fetchedAt, Age and freshness must all read the same one. */
  now: () => number;
  /** How long after its fetch an answer stands in when the site fails (STALE_IF_ERROR_S). */
  staleIfErrorMs: number;
  /** The contract's code of a failure (the error table's), which says whether a kept answer stands in. */
  codeOf: (error: unknown) => ErrorCode;
  /** Told of every counted lookup's result, for the metrics. */
  onLookup?: (result: 'hit' | 'stale' | 'miss') => void;
  /** Told of every kept answer served in place of a failed fetch, for the metrics. */
  onStale?: (reason: StaleReason) => void;
}

/** The codes whose failure a kept answer stands in for (the contract's `meta.stale.reason`). */
const STALE_REASONS: ReadonlySet<ErrorCode> = new Set(StaleReason.options);
const isStaleReason = (code: ErrorCode): code is StaleReason => STALE_REASONS.has(code);

/**
 * How long a page the service could not read (too large, cut off, not parsed within the parse
 * deadline) answers with the same error without being fetched again. Such a page is what the
 * upstream serves now, so a refetch within seconds would cost another fetch and up to a parse
 * deadline of CPU for the same error; half a minute turns a burst of requests for it into one, and a
 * page fixed upstream (or a render that PHP completes next time) is read again soon. A page of a
 * changed layout is not remembered: its parse is as cheap as any other.
 * @internal exported for the tests: the unreadable-page tests move their clock past it.
 */
export const FAILED_PAGE_MEMORY_MS = 30_000;
// Distinct failed pages remembered at once; beyond it the oldest is forgotten (and refetched).
const FAILED_PAGES_MAX = 1_000;
/**
 * A failed-recently key gets its kept answer from the lookup, and its page is tried again in the
 * background at most this often, when the key is asked for: a flood of requests during an outage
 * costs one upstream attempt (or one parse of a changed layout) per key per period, no request waits
 * for it, and a site that recovers is seen again within the period.
 */
const FAILED_FETCH_RETRY_MS = 10_000;
// Failed-recently keys remembered at once; beyond it the oldest go the whole way again.
const FAILED_FETCHES_MAX = 10_000;
// Answers fetched here whose upstream facts are remembered, the latest first. The misses that waited
// for a fetch read its facts as soon as it is done (the answer store's write to Redis aside, in the
// same turn of the event loop), and fetches at once are bounded by the upstream's connection turns
// and the parse queue, far below this.
const FETCHES_REMEMBERED = 256;
/**
 * At most `entries` entries, as lru-cache's size bound, each entry counting one: its count bound
 * (`max`) allocates every slot when the cache is made, which every app and instance would pay for
 * caches that mostly stay empty.
 */
const atMost = (entries: number) => ({ maxSize: entries, sizeCalculation: () => 1 });

/**
 * The key of an answer: endpoint, the validated parameters (defaults filled in, `q` normalised) in a
 * fixed order, and the parser version, so that a parser fix never serves answers of the old parser.
 */
export function cacheKey(endpoint: AnyEndpoint, input: Record<string, unknown>): string {
  const params = Object.keys(input)
    .sort()
    .map((name) => `${name}=${encodeURIComponent(String(input[name]))}`)
    .join('&');
  return `${endpoint.path}?${params}#parser-v${PARSER_VERSION}`;
}

export function createAnswerLifecycle({
  cache,
  answers,
  fetchAnswer,
  gaveUp,
  logger,
  now,
  staleIfErrorMs,
  codeOf,
  onLookup = () => undefined,
  onStale = () => undefined,
}: AnswerLifecycleDeps): AnswerLifecycle {
  // The latest answers this instance fetched itself (a MISS), with what the upstream did; others came
  // from the answers store (DATA_DIR, or another instance through Redis). Kept beside the cache, not
  // in its entries: a hit never reads them, and every cached answer (a per-answer WeakSet too) would
  // carry their heap for nothing.
  const fetchedHere = new LRUCache<CatalogAnswer, UpstreamFacts>(atMost(FETCHES_REMEMBERED));
  // Unreadable pages, by key, on the cache's clock (FAILED_PAGE_MEMORY_MS).
  const failedPages = new LRUCache<string, Error>({ ...atMost(FAILED_PAGES_MAX), ttl: FAILED_PAGE_MEMORY_MS, perf: { now } });
  // Stale keys whose last background refresh failed because of the site, and its code.
  const failedRefreshes = new LRUCache<string, StaleReason>(atMost(FAILED_PAGES_MAX));
  // Failed-recently keys: the code, and when the page was last tried.
  const failedFetches = new LRUCache<string, { reason: StaleReason; triedAt: number }>(atMost(FAILED_FETCHES_MAX));
  // Since when answers come from the kept copies; cleared by the next answer fetched here.
  let lastGoodState: LastGoodState | undefined;
  // Each kept answer's stale form for the latest reason, built once: a feed's model is built once per
  // answer object. One form per answer, so a stand-in costs memory for at most one more copy.
  const staleForms = new WeakMap<CatalogAnswer, { reason: StaleReason; form: CatalogAnswer }>();
  // Each input object's key is built once, for speed only (the door asks with the same
  // object again and again); an input object belongs to the one endpoint whose schema produced it.
  const keys = new WeakMap<Record<string, unknown>, string>();
  const keyOf = (endpoint: AnyEndpoint, input: Record<string, unknown>): string => {
    let key = keys.get(input);
    if (key === undefined) {
      key = cacheKey(endpoint, input);
      keys.set(input, key);
    }
    return key;
  };
  /** What a failed fetch says of its page: gone (the site's 404), a failure of the site that a kept copy stands in for, or neither. */
  const failureOf = (error: unknown): 'gone' | StaleReason | undefined => {
    const code = codeOf(error);
    if (code === 'NOT_FOUND') return 'gone';
    return isStaleReason(code) ? code : undefined;
  };

  /**
   * The answer the cache's loader stores: fetched here, or with REDIS_URL one another instance
   * stored or is fetching (newer than `newerThan` when refreshing an answer of that age).
   */
  function load(
    endpoint: AnyEndpoint,
    input: Record<string, unknown>,
    key: string,
    newerThan?: number,
    priority: FetchPriority = 'user',
  ): Promise<CatalogAnswer> {
    const fetchHere = () => {
      const failed = failedPages.get(key);
      if (failed !== undefined) return Promise.reject(failed);
      return fetchAnswer(endpoint, input, priority).then(
        ({ answer, upstream }) => {
          fetchedHere.set(answer, upstream);
          return answer;
        },
        (error: unknown) => {
          if (error instanceof UpstreamUnreadablePageError) failedPages.set(key, error);
          throw error;
        },
      );
    };
    const onGiveUp = () => gaveUp(endpoint, input);
    return answers.load(key, fetchHere, { newerThan, onGiveUp, background: priority === 'background' }).then((answer) => {
      failedRefreshes.delete(key);
      failedFetches.delete(key);
      if (fetchedHere.has(answer)) lastGoodState = undefined;
      return answer;
    });
  }

  /** The page is gone upstream: its answer is dropped from memory and wherever it is kept. */
  function forget(key: string): Promise<void> {
    failedRefreshes.delete(key);
    failedFetches.delete(key);
    cache.delete(key);
    return answers
      .drop(key)
      .catch((error: unknown) => logger.warn({ err: error, key }, 'could not drop the kept answer of a page gone upstream'));
  }

  /** A held answer as it is served: fresh, or stale (starting its one refresh, with side effects). */
  function served(
    endpoint: AnyEndpoint,
    input: Record<string, unknown>,
    key: string,
    answer: CatalogAnswer,
    freshness: Freshness,
    sideEffects: boolean,
  ): CatalogResult {
    if (freshness === 'fresh') return { answer, cacheStatus: 'HIT' };
    if (sideEffects) {
      cache.refresh(key, () =>
        load(endpoint, input, key, answer.fetchedAt).catch((error: unknown) => {
          logger.warn({ err: error, key }, 'background refresh failed; the stale answer stays');
          const failure = failureOf(error);
          if (failure === 'gone') void forget(key);
          else if (failure !== undefined) failedRefreshes.set(key, failure);
          throw error;
        }),
      );
    }
    const failedWith = failedRefreshes.get(key);
    return failedWith === undefined ? { answer, cacheStatus: 'STALE' } : keptCopy(answer, failedWith, sideEffects);
  }

  /** A copy kept for outages as it is served in place of a failed fetch (counted, with side effects). */
  function keptCopy(answer: CatalogAnswer, reason: StaleReason, sideEffects: boolean): CatalogResult {
    if (sideEffects) {
      const at = now();
      lastGoodState ??= { since: at, lastAt: at, lastReason: reason, served: 0 };
      lastGoodState.lastAt = at;
      lastGoodState.lastReason = reason;
      lastGoodState.served += 1;
      onStale(reason);
    }
    let stale = staleForms.get(answer);
    if (stale?.reason !== reason) staleForms.set(answer, (stale = { reason, form: staleAnswer(answer, reason) }));
    return { answer: stale.form, cacheStatus: 'STALE', staleReason: reason };
  }

  /**
   * The kept copy of a failed-recently key, while it is in memory and within STALE_IF_ERROR_S;
   * undefined otherwise. With side effects, its page is tried again in the background once
   * FAILED_FETCH_RETRY_MS have passed since the last try; the copy goes out meanwhile all the same.
   */
  function failedRecently(
    endpoint: AnyEndpoint,
    input: Record<string, unknown>,
    key: string,
    sideEffects: boolean,
  ): CatalogResult | undefined {
    const failure = failedFetches.get(key);
    if (failure === undefined) return undefined;
    const at = now();
    const kept = cache.kept(key);
    if (kept === undefined || kept.fetchedAt <= at - staleIfErrorMs) {
      if (sideEffects) failedFetches.delete(key);
      return undefined;
    }
    if (sideEffects) {
      if (at - failure.triedAt >= FAILED_FETCH_RETRY_MS) retry(endpoint, input, key, failure, at);
      onLookup('stale');
    }
    return keptCopy(kept, failure.reason, sideEffects);
  }

  function retry(endpoint: AnyEndpoint, input: Record<string, unknown>, key: string, failure: { triedAt: number }, at: number): void {
    failure.triedAt = at;
    cache
      .load(key, () => load(endpoint, input, key))
      .catch((error: unknown) => {
        logger.warn({ err: error, key }, 'the page failed again; its last good answer still stands in');
        const failure = failureOf(error);
        if (failure === 'gone') void forget(key);
        else if (failure !== undefined) failedFetches.set(key, { reason: failure, triedAt: at });
        else failedFetches.delete(key);
      });
  }

  /** The one lookup: what is held for `key` now (fresh, stale, or a failed-recently key's kept copy); undefined when nothing is. */
  function held(endpoint: AnyEndpoint, input: Record<string, unknown>, key: string, sideEffects: boolean): CatalogResult | undefined {
    const found = cache.lookup(key);
    if (found === undefined) return failedRecently(endpoint, input, key, sideEffects);
    if (sideEffects) onLookup(found.freshness === 'fresh' ? 'hit' : 'stale');
    return served(endpoint, input, key, found.answer, found.freshness, sideEffects);
  }

  /** The copy kept for outages of `key` within STALE_IF_ERROR_S: the one in memory, else the one in the answers store. */
  async function keptAnswer(key: string): Promise<CatalogAnswer | undefined> {
    const keptFrom = now() - staleIfErrorMs;
    const inMemory = cache.kept(key);
    if (inMemory !== undefined && inMemory.fetchedAt > keptFrom) return inMemory;
    const kept = await answers.kept(key);
    if (kept === undefined || kept.fetchedAt <= keptFrom) return undefined;
    // Held in memory, so that the next request during the outage gets the same object (and its feed).
    cache.remember(key, kept);
    return kept;
  }

  /**
   * A failed fetch: a page gone upstream (404) drops its kept copy; a failure of the site (or a full
   * queue here) is answered with the kept copy where there is one, and the key is failed-recently;
   * otherwise the error stands.
   */
  async function afterFailure(key: string, error: unknown): Promise<CatalogResult> {
    const failure = failureOf(error);
    if (failure === 'gone') await forget(key);
    if (failure === undefined || failure === 'gone') throw error;
    const kept = await keptAnswer(key);
    if (kept === undefined) throw error;
    failedFetches.set(key, { reason: failure, triedAt: now() });
    return keptCopy(kept, failure, true);
  }

  async function fetchKey(
    endpoint: AnyEndpoint,
    input: Record<string, unknown>,
    key: string,
    newerThan?: number,
    priority: FetchPriority = 'user',
  ): Promise<CatalogResult> {
    onLookup('miss');
    let answer: CatalogAnswer;
    try {
      answer = await cache.load(key, () => load(endpoint, input, key, newerThan, priority));
    } catch (error) {
      return afterFailure(key, error);
    }
    const upstream = fetchedHere.get(answer);
    if (upstream !== undefined) return { answer, cacheStatus: 'MISS', upstream };
    // An answer kept here or by another instance: fetched by no one for this request, so a HIT or STALE.
    return served(endpoint, input, key, answer, cache.freshness(answer) ?? 'stale', true);
  }

  function answer(endpoint: AnyEndpoint, input: Record<string, unknown>, options: NoSideEffects): CatalogResult | undefined;
  function answer(endpoint: AnyEndpoint, input: Record<string, unknown>): CatalogResult | Promise<CatalogResult>;
  function answer(
    endpoint: AnyEndpoint,
    input: Record<string, unknown>,
    options?: NoSideEffects,
  ): CatalogResult | Promise<CatalogResult> | undefined {
    const key = keyOf(endpoint, input);
    const sideEffects = options === undefined;
    const found = held(endpoint, input, key, sideEffects);
    return found !== undefined || !sideEffects ? found : fetchKey(endpoint, input, key);
  }

  return {
    answer,
    fetch: (endpoint, input, newerThan, priority) => fetchKey(endpoint, input, keyOf(endpoint, input), newerThan, priority),
    lastGood: () => lastGoodState && { ...lastGoodState },
  };
}

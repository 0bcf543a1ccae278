import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../config/logger.js';
import { PARSER_VERSION } from '../parsers/version.js';
import type { FetchPriority, UpstreamClient, UpstreamPage } from '../upstream/client.js';
import type { SitePaths } from '../upstream/sitePaths.js';
import { UpstreamNotFoundError, UpstreamTimeoutError, UpstreamUnreadablePageError } from '../upstream/errors.js';
import type { AnswersStore } from './answersStore.js';
import { StaleReason, type ErrorCode } from '../contract/schemas.js';
import { staleAnswer, type CatalogAnswer, type UpstreamFacts } from './answer.js';
import type { AnswerCache, Freshness } from './cache.js';
import type { AnyEndpoint } from './endpoints/index.js';
import { checkParseRoom, parsePage } from './pageParser.js';

type CacheStatus = 'HIT' | 'MISS' | 'STALE';

export interface CatalogResult {
  answer: CatalogAnswer;
  cacheStatus: CacheStatus;
  /** Set when the fetch failed and `answer` is the last good one kept: the failure's code. */
  staleReason?: StaleReason;
  /** Set on a MISS whose answer this instance fetched (the miss's own fetch, or one it joined): what the upstream did. */
  upstream?: UpstreamFacts;
}

/** Since when answers have been served from the last good copies, without a successful fetch since. */
export interface LastGoodState {
  /** When the first of them was served (ms since epoch). */
  since: number;
  /** When the latest was served, and why. */
  lastAt: number;
  lastReason: StaleReason;
  served: number;
}

/** The codes whose failure a kept answer stands in for (the contract's `meta.stale.reason`). */
const STALE_REASONS: ReadonlySet<ErrorCode> = new Set(StaleReason.options);

export interface CatalogService {
  /**
   * What `cached` answers now, synchronously, without its side effects: no refresh of a stale
   * answer, no retry of a failed page, nothing counted (for a request that may not be counted).
   */
  peek(endpoint: AnyEndpoint, input: Record<string, unknown>): CatalogResult | undefined;
  /**
   * The cached answer (fresh, or stale while one refresh runs), or the last good answer of a key
   * whose fetch failed moments ago, synchronously; undefined on a miss.
   */
  cached(endpoint: AnyEndpoint, input: Record<string, unknown>): CatalogResult | undefined;
  /**
   * A miss: fetch, parse and cache, sharing one upstream fetch with concurrent misses of the same key.
   * With REDIS_URL, another instance's answer stands in only if it was fetched after `newerThan`.
   * A `background` fetch (the crawler's) lets every user's fetch take an upstream connection first.
   */
  fetch(endpoint: AnyEndpoint, input: Record<string, unknown>, newerThan?: number, priority?: FetchPriority): Promise<CatalogResult>;
  /**
   * Whether fetching `endpoint` would first look up a path of the site (src/upstream/sitePaths.ts),
   * and that lookup on its own: for the crawler, which paces every upstream request it causes.
   */
  pathLookup(endpoint: AnyEndpoint): ((priority: FetchPriority) => Promise<void>) | null;
  /** Whether answers are being served from the last good copies, and since when; undefined when not. */
  lastGood(): LastGoodState | undefined;
}

export interface CatalogServiceDeps {
  upstream: UpstreamClient;
  /** The site's paths (learned, or set by a variable), which fetch the pages built on them. */
  paths: SitePaths;
  logger: Logger;
  cache: AnswerCache;
  ttlSeconds: (endpoint: AnyEndpoint) => number;
  /** The cache's clock: fetchedAt, Age and freshness must all read the same one. */
  now: () => number;
  /** Told of every lookup's result, for the metrics. */
  onLookup?: (result: 'hit' | 'stale' | 'miss') => void;
  /** Where answers are kept below the cache: DATA_DIR, and Redis for every instance (src/stores/index.ts picks it). */
  answers: AnswersStore;
  /** The page deadline (UPSTREAM_TIMEOUT_MS): a wait for another instance's fetch ends there. */
  deadlineMs: number;
  /** How long after its fetch an answer stands in when the upstream fails (STALE_IF_ERROR_S). */
  staleIfErrorMs: number;
  /** The contract's code of a failure (the error table's), which says whether a kept answer stands in. */
  codeOf: (error: unknown) => ErrorCode;
  /** Told of every kept answer served in place of a failed fetch, for the metrics. */
  onStale?: (reason: StaleReason) => void;
}

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
 * A key whose fetch failed, and whose last good answer stood in, gets that answer from the
 * cached-hit path from then on, and its page is tried again in the background at most this often,
 * when the key is asked for: a flood of requests during an outage costs one upstream attempt (or one
 * parse of a changed layout) per key per period, no request waits for it, and a site that recovers
 * is seen again within the period.
 */
const FAILED_FETCH_RETRY_MS = 10_000;
// Keys whose last good answer stands in, remembered at once; beyond it the oldest go the whole way again.
const FAILED_FETCHES_MAX = 10_000;
// Answers fetched here whose upstream facts are remembered, the latest first. The misses that waited
// for a fetch read its facts as soon as it is done (the answer store's write to Redis aside, in the
// same turn of the event loop), and fetches at once are bounded by the upstream's connection turns
// and the parse queue, far below this.
const FETCHES_REMEMBERED = 256;

/**
 * The bytes of `text` in a buffer of their own. Buffer.from puts a short text in a slice of a shared
 * 8 KB slab, and a cached slice keeps its whole slab alive with whatever else was cut from it, often
 * several times its own size.
 * @internal exported for the tests: its unit test checks the copy owns its memory, which no answer shows.
 */
export function ownBuffer(text: string): Buffer {
  const buffer = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  buffer.write(text);
  return buffer;
}

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

export function createCatalogService({
  upstream,
  paths,
  logger,
  cache,
  ttlSeconds,
  now,
  onLookup = () => undefined,
  answers,
  deadlineMs,
  staleIfErrorMs,
  codeOf,
  onStale = () => undefined,
}: CatalogServiceDeps): CatalogService {
  // The latest answers this instance fetched itself (a MISS), with what the upstream did; others came
  // from the answers store (DATA_DIR, or another instance through Redis). Kept beside the cache, not
  // in its entries: a hit never reads them, and every cached answer (a per-answer WeakSet too) would
  // carry their heap for nothing.
  const fetchedHere = new LRUCache<CatalogAnswer, UpstreamFacts>({ max: FETCHES_REMEMBERED });
  // Pages that could not be read, by key, on the cache's clock (FAILED_PAGE_MEMORY_MS).
  const failedPages = new LRUCache<string, Error>({ max: FAILED_PAGES_MAX, ttl: FAILED_PAGE_MEMORY_MS, perf: { now } });
  // Keys whose last background refresh failed because of the upstream, and its code (see `served`).
  const failedRefreshes = new LRUCache<string, StaleReason>({ max: FAILED_PAGES_MAX });
  // Keys whose fetch failed and whose last good answer stood in: the code, and when the page was last tried.
  const failedFetches = new LRUCache<string, { reason: StaleReason; triedAt: number }>({ max: FAILED_FETCHES_MAX });
  // Since when answers come from the last good copies; cleared by the next answer fetched here.
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

  async function fetchAnswer(
    endpoint: AnyEndpoint,
    input: Record<string, unknown>,
    priority: FetchPriority,
  ): Promise<{ answer: CatalogAnswer; upstream: UpstreamFacts }> {
    // The route validated `input` with this endpoint's own schema, so the cast is exact.
    const typedInput = input as never;
    // No fetch for a page that could not be parsed soon: the site is not asked for nothing.
    checkParseRoom();
    const started = performance.now();
    const page = await fetchPage(endpoint, typedInput, priority);
    const durationMs = Math.round(performance.now() - started);
    const parsed = await parsePage(endpoint, page.html, page.url, input);
    if (parsed.missing.length > 0) {
      logger.warn({ endpoint: endpoint.path, source: page.url, missing: parsed.missing }, 'optional upstream blocks missing');
    }
    // The ETag covers what the client reads (data, pagination, source) but not fetchedAt, so a
    // refetch of unchanged upstream data still revalidates with 304; hence a weak validator.
    const { content } = parsed;
    const fetchedAt = now();
    const meta = JSON.stringify({ source: page.url, fetchedAt: new Date(fetchedAt).toISOString() });
    const answer: CatalogAnswer = {
      body: ownBuffer(`{"status":"success",${content.slice(1, -1)},"meta":${meta}}`),
      etag: `W/"${createHash('sha1').update(page.url).update(content).digest('base64url')}"`,
      fetchedAt,
      ttlSeconds: ttlSeconds(endpoint),
    };
    return { answer, upstream: { url: page.url, status: page.status, attempts: page.attempts, durationMs } };
  }

  /** The endpoint's upstream page; on a 404, its fallback page once, where it has one. */
  async function fetchPage(endpoint: AnyEndpoint, input: never, priority: FetchPriority): Promise<UpstreamPage> {
    try {
      return await paths.fetchPage(endpoint.sitePath ?? null, (site) => endpoint.upstreamPath(input, site), priority);
    } catch (error) {
      const fallback = error instanceof UpstreamNotFoundError ? (endpoint.fallbackPath?.(input) ?? null) : null;
      if (fallback === null) throw error;
      return upstream.fetchPage(fallback, { priority });
    }
  }

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
    const onGiveUp = () =>
      new UpstreamTimeoutError(
        `No answer from the upstream within ${deadlineMs} ms`,
        new URL(endpoint.upstreamPath(input as never, paths.site()), upstream.origin).href,
      );
    return answers.load(key, fetchHere, { newerThan, onGiveUp, background: priority === 'background' }).then((answer) => {
      failedRefreshes.delete(key);
      failedFetches.delete(key);
      if (fetchedHere.has(answer)) lastGoodState = undefined;
      return answer;
    });
  }

  /**
   * A cached answer as it is served: fresh, or stale while one background refresh runs. Once a
   * refresh failed because of the upstream, the stale answer says so (meta.stale) until one succeeds;
   * a refresh that finds the page gone drops it.
   */
  function served(
    endpoint: AnyEndpoint,
    input: Record<string, unknown>,
    key: string,
    answer: CatalogAnswer,
    freshness: Freshness,
  ): CatalogResult {
    if (freshness === 'fresh') return { answer, cacheStatus: 'HIT' };
    cache.refresh(key, () =>
      load(endpoint, input, key, answer.fetchedAt).catch((error: unknown) => {
        logger.warn({ err: error, key }, 'background refresh failed; the stale answer stays');
        const code = codeOf(error);
        if (code === 'NOT_FOUND') void forget(key);
        else if (STALE_REASONS.has(code)) failedRefreshes.set(key, code as StaleReason);
        throw error;
      }),
    );
    const failedWith = failedRefreshes.get(key);
    return failedWith === undefined ? { answer, cacheStatus: 'STALE' } : servedStale(answer, failedWith);
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

  function peek(endpoint: AnyEndpoint, input: Record<string, unknown>): CatalogResult | undefined {
    const key = keyOf(endpoint, input);
    const found = cache.lookup(key);
    if (found !== undefined) {
      if (found.freshness === 'fresh') return { answer: found.answer, cacheStatus: 'HIT' };
      const failedWith = failedRefreshes.get(key);
      return failedWith === undefined ? { answer: found.answer, cacheStatus: 'STALE' } : staleResult(found.answer, failedWith);
    }
    const failure = failedFetches.get(key);
    const kept = failure && cache.kept(key);
    return failure && kept && kept.fetchedAt > now() - staleIfErrorMs ? staleResult(kept, failure.reason) : undefined;
  }

  function cached(endpoint: AnyEndpoint, input: Record<string, unknown>): CatalogResult | undefined {
    const key = keyOf(endpoint, input);
    const found = cache.lookup(key);
    if (found === undefined) return standingIn(endpoint, input, key);
    onLookup(found.freshness === 'fresh' ? 'hit' : 'stale');
    return served(endpoint, input, key, found.answer, found.freshness);
  }

  /** The last good answer of `key` within STALE_IF_ERROR_S: the one in memory, else the one kept on disk (or in Redis). */
  async function lastGoodAnswer(key: string): Promise<CatalogAnswer | undefined> {
    const keptFrom = now() - staleIfErrorMs;
    const inMemory = cache.kept(key);
    if (inMemory !== undefined && inMemory.fetchedAt > keptFrom) return inMemory;
    const kept = await answers.lastGood(key);
    if (kept === undefined || kept.fetchedAt <= keptFrom) return undefined;
    // Held in memory, so that the next request during the outage gets the same object (and its feed).
    cache.remember(key, kept);
    return kept;
  }

  /** A kept answer in its stale form (meta.stale), built once per answer (for its latest reason). */
  function staleResult(answer: CatalogAnswer, reason: StaleReason): CatalogResult {
    let stale = staleForms.get(answer);
    if (stale?.reason !== reason) staleForms.set(answer, (stale = { reason, form: staleAnswer(answer, reason) }));
    return { answer: stale.form, cacheStatus: 'STALE', staleReason: reason };
  }

  function servedStale(answer: CatalogAnswer, reason: StaleReason): CatalogResult {
    const at = now();
    lastGoodState ??= { since: at, lastAt: at, lastReason: reason, served: 0 };
    lastGoodState.lastAt = at;
    lastGoodState.lastReason = reason;
    lastGoodState.served += 1;
    onStale(reason);
    return staleResult(answer, reason);
  }

  /**
   * The last good answer of a key whose fetch failed, while it is in memory and within
   * STALE_IF_ERROR_S; undefined otherwise. Asked for FAILED_FETCH_RETRY_MS after the last try, its
   * page is tried again in the background; the answer goes out meanwhile all the same.
   */
  function standingIn(endpoint: AnyEndpoint, input: Record<string, unknown>, key: string): CatalogResult | undefined {
    const failure = failedFetches.get(key);
    if (failure === undefined) return undefined;
    const at = now();
    const kept = cache.kept(key);
    if (kept === undefined || kept.fetchedAt <= at - staleIfErrorMs) {
      failedFetches.delete(key);
      return undefined;
    }
    if (at - failure.triedAt >= FAILED_FETCH_RETRY_MS) {
      failure.triedAt = at;
      cache
        .load(key, () => load(endpoint, input, key))
        .catch((error: unknown) => {
          logger.warn({ err: error, key }, 'the page failed again; its last good answer still stands in');
          const code = codeOf(error);
          if (code === 'NOT_FOUND') void forget(key);
          else if (STALE_REASONS.has(code)) failedFetches.set(key, { reason: code as StaleReason, triedAt: at });
          else failedFetches.delete(key);
        });
    }
    onLookup('stale');
    return servedStale(kept, failure.reason);
  }

  /**
   * A failed fetch: a page gone upstream (404) drops its kept copy; a failure of the upstream (or a
   * full queue here) is answered with the last good answer where one is kept; otherwise the error stands.
   */
  async function afterFailure(key: string, error: unknown): Promise<CatalogResult> {
    const code = codeOf(error);
    if (code === 'NOT_FOUND') {
      await forget(key);
      throw error;
    }
    if (!STALE_REASONS.has(code)) throw error;
    const kept = await lastGoodAnswer(key);
    if (kept === undefined) throw error;
    failedFetches.set(key, { reason: code as StaleReason, triedAt: now() });
    return servedStale(kept, code as StaleReason);
  }

  async function fetch(
    endpoint: AnyEndpoint,
    input: Record<string, unknown>,
    newerThan?: number,
    priority: FetchPriority = 'user',
  ): Promise<CatalogResult> {
    onLookup('miss');
    const key = keyOf(endpoint, input);
    let answer: CatalogAnswer;
    try {
      answer = await cache.load(key, () => load(endpoint, input, key, newerThan, priority));
    } catch (error) {
      return afterFailure(key, error);
    }
    const upstream = fetchedHere.get(answer);
    if (upstream !== undefined) return { answer, cacheStatus: 'MISS', upstream };
    // An answer kept here or by another instance: a hit (or stale, and refreshed).
    const freshness = cache.freshness(answer);
    return freshness === undefined ? { answer, cacheStatus: 'MISS' } : served(endpoint, input, key, answer, freshness);
  }

  function pathLookup(endpoint: AnyEndpoint): ((priority: FetchPriority) => Promise<void>) | null {
    const needs = endpoint.sitePath;
    return needs === undefined || !paths.unknown(needs) ? null : (priority) => paths.learn(needs, priority);
  }

  return { peek, cached, fetch, pathLookup, lastGood: () => lastGoodState && { ...lastGoodState } };
}

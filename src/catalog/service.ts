import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../config/logger.js';
import { PARSER_VERSION } from '../parsers/version.js';
import type { UpstreamClient, UpstreamPage } from '../upstream/client.js';
import { UpstreamNotFoundError, UpstreamTimeoutError, UpstreamUnreadablePageError } from '../upstream/errors.js';
import type { SharedAnswers } from './answersStore.js';
import type { CatalogAnswer } from './answer.js';
import type { AnswerCache, Freshness } from './cache.js';
import type { AnyEndpoint, UpstreamSite } from './endpoints/index.js';
import { checkParseRoom, parsePage } from './pageParser.js';

export type CacheStatus = 'HIT' | 'MISS' | 'STALE';

export interface CatalogResult {
  answer: CatalogAnswer;
  cacheStatus: CacheStatus;
}

export interface CatalogService {
  /** The cached answer (fresh, or stale while one refresh runs), synchronously; undefined on a miss. */
  cached(endpoint: AnyEndpoint, input: Record<string, unknown>): CatalogResult | undefined;
  /**
   * A miss: fetch, parse and cache, sharing one upstream fetch with concurrent misses of the same key.
   * With REDIS_URL, another instance's answer stands in only if it was fetched after `newerThan`.
   */
  fetch(endpoint: AnyEndpoint, input: Record<string, unknown>, newerThan?: number): Promise<CatalogResult>;
}

export interface CatalogServiceDeps {
  upstream: UpstreamClient;
  site: UpstreamSite;
  logger: Logger;
  cache: AnswerCache<CatalogAnswer>;
  ttlSeconds(endpoint: AnyEndpoint): number;
  /** The cache's clock: fetchedAt, Age and freshness must all read the same one. */
  now: () => number;
  /** Told of every lookup's result, for the metrics. */
  onLookup?: (result: 'hit' | 'stale' | 'miss') => void;
  /** The cache's second level and one fetch per page across instances (src/shared/stores.ts picks it). */
  answers: SharedAnswers;
  /** The page deadline (UPSTREAM_TIMEOUT_MS): a wait for another instance's fetch ends there. */
  deadlineMs: number;
}

/**
 * How long a page the service could not read (too large, cut off, not parsed within the parse
 * deadline) answers with the same error without being fetched again. Such a page is what the
 * upstream serves now, so a refetch within seconds would cost another fetch and up to a parse
 * deadline of CPU for the same error; half a minute turns a burst of requests for it into one, and a
 * page fixed upstream (or a render that PHP completes next time) is read again soon. A page of a
 * changed layout is not remembered: its parse is as cheap as any other.
 */
export const FAILED_PAGE_MEMORY_MS = 30_000;
// Distinct failed pages remembered at once; beyond it the oldest is forgotten (and refetched).
const FAILED_PAGES_MAX = 1_000;

/**
 * The bytes of `text` in a buffer of their own. Buffer.from puts a short text in a slice of a shared
 * 8 KB slab, and a cached slice keeps its whole slab alive with whatever else was cut from it: a
 * cached search answer of 280 bytes held ~620 bytes of slabs.
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

export function createCatalogService({ upstream, site, logger, cache, ttlSeconds, now, onLookup = () => undefined, answers, deadlineMs }: CatalogServiceDeps): CatalogService {
  // Answers this instance fetched itself (a MISS); others came from another instance through Redis.
  const fetchedHere = new WeakSet<CatalogAnswer>();
  // Pages that could not be read, by key, on the cache's clock (FAILED_PAGE_MEMORY_MS).
  const failedPages = new LRUCache<string, Error>({ max: FAILED_PAGES_MAX, ttl: FAILED_PAGE_MEMORY_MS, perf: { now } });
  // Each input object's key is built once, for speed only (the cached-hit path asks with the same
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

  async function fetchAnswer(endpoint: AnyEndpoint, input: Record<string, unknown>): Promise<CatalogAnswer> {
    // The route validated `input` with this endpoint's own schema, so the cast is exact.
    const typedInput = input as never;
    // No fetch for a page that could not be parsed soon: the site is not asked for nothing.
    checkParseRoom();
    const started = performance.now();
    const page = await fetchPage(endpoint, typedInput);
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
    return {
      body: ownBuffer(`{"status":"success",${content.slice(1, -1)},"meta":${meta}}`),
      etag: `W/"${createHash('sha1').update(page.url).update(content).digest('base64url')}"`,
      fetchedAt,
      ttlSeconds: ttlSeconds(endpoint),
      upstream: { url: page.url, status: page.status, attempts: page.attempts, durationMs },
    };
  }

  /** The endpoint's upstream page; on a 404, its fallback page once, where it has one. */
  async function fetchPage(endpoint: AnyEndpoint, input: never): Promise<UpstreamPage> {
    try {
      return await upstream.fetchPage(endpoint.upstreamPath(input, site));
    } catch (error) {
      const fallback = error instanceof UpstreamNotFoundError ? (endpoint.fallbackPath?.(input, site) ?? null) : null;
      if (fallback === null) throw error;
      return upstream.fetchPage(fallback);
    }
  }

  /**
   * The answer the cache's loader stores: fetched here, or with REDIS_URL one another instance
   * stored or is fetching (newer than `newerThan` when refreshing an answer of that age).
   */
  function load(endpoint: AnyEndpoint, input: Record<string, unknown>, key: string, newerThan?: number): Promise<CatalogAnswer> {
    const fetchHere = () => {
      const failed = failedPages.get(key);
      if (failed !== undefined) return Promise.reject(failed);
      return fetchAnswer(endpoint, input).then(
        (answer) => {
          fetchedHere.add(answer);
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
        new URL(endpoint.upstreamPath(input as never, site), upstream.origin).href,
      );
    return answers.load(key, fetchHere, { newerThan, onGiveUp });
  }

  /** A cached answer as it is served: fresh, or stale while one background refresh runs. */
  function served(endpoint: AnyEndpoint, input: Record<string, unknown>, key: string, answer: CatalogAnswer, freshness: Freshness): CatalogResult {
    if (freshness === 'fresh') return { answer, cacheStatus: 'HIT' };
    cache.refresh(key, () =>
      load(endpoint, input, key, answer.fetchedAt).catch((error: unknown) => {
        logger.warn({ err: error, key }, 'background refresh failed; the stale answer stays');
        throw error;
      }),
    );
    return { answer, cacheStatus: 'STALE' };
  }

  function cached(endpoint: AnyEndpoint, input: Record<string, unknown>): CatalogResult | undefined {
    const key = keyOf(endpoint, input);
    const found = cache.lookup(key);
    if (found === undefined) return undefined;
    onLookup(found.freshness === 'fresh' ? 'hit' : 'stale');
    return served(endpoint, input, key, found.answer, found.freshness);
  }

  async function fetch(endpoint: AnyEndpoint, input: Record<string, unknown>, newerThan?: number): Promise<CatalogResult> {
    onLookup('miss');
    const key = keyOf(endpoint, input);
    const answer = await cache.load(key, () => load(endpoint, input, key, newerThan));
    // Another instance's answer is a hit of the shared cache (or stale, and refreshed).
    const freshness = fetchedHere.has(answer) ? undefined : cache.freshness(answer);
    return freshness === undefined ? { answer, cacheStatus: 'MISS' } : served(endpoint, input, key, answer, freshness);
  }

  return { cached, fetch };
}

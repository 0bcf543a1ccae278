import { createHash } from 'node:crypto';
import type { Logger } from '../config/logger.js';
import { PARSER_VERSION } from '../parsers/version.js';
import type { UpstreamClient, UpstreamPage } from '../upstream/client.js';
import { UpstreamNotFoundError } from '../upstream/errors.js';
import type { AnswerCache, CachedAnswer } from './cache.js';
import type { AnyEndpoint, UpstreamSite } from './endpoints/index.js';

/** An answer plus what the upstream did to produce it (logged on a miss). */
export interface CatalogAnswer extends CachedAnswer {
  upstream: { url: string; status: number; attempts: number; durationMs: number };
}

export type CacheStatus = 'HIT' | 'MISS' | 'STALE';

export interface CatalogResult {
  answer: CatalogAnswer;
  cacheStatus: CacheStatus;
}

export interface CatalogService {
  /** The cached answer (fresh, or stale while one refresh runs), synchronously; undefined on a miss. */
  cached(endpoint: AnyEndpoint, input: Record<string, unknown>): CatalogResult | undefined;
  /** A miss: fetch, parse and cache, sharing one upstream fetch with concurrent misses of the same key. */
  fetch(endpoint: AnyEndpoint, input: Record<string, unknown>): Promise<CatalogResult>;
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

export function createCatalogService({ upstream, site, logger, cache, ttlSeconds, now, onLookup = () => undefined }: CatalogServiceDeps): CatalogService {
  async function fetchAnswer(endpoint: AnyEndpoint, input: Record<string, unknown>): Promise<CatalogAnswer> {
    // The route validated `input` with this endpoint's own schema, so the cast is exact.
    const typedInput = input as never;
    const started = performance.now();
    const page = await fetchPage(endpoint, typedInput);
    const durationMs = Math.round(performance.now() - started);
    const parsed = endpoint.parse(page.html, page.url, typedInput);
    if (parsed.missing.length > 0) {
      logger.warn({ endpoint: endpoint.path, source: page.url, missing: parsed.missing }, 'optional upstream blocks missing');
    }
    const pagination = endpoint.paginated ? parsed.pagination : null;
    // The ETag covers what the client reads (data, pagination, source) but not fetchedAt, so a
    // refetch of unchanged upstream data still revalidates with 304; hence a weak validator.
    const content = JSON.stringify({ data: parsed.data, pagination });
    const fetchedAt = now();
    const meta = JSON.stringify({ source: page.url, fetchedAt: new Date(fetchedAt).toISOString() });
    return {
      body: Buffer.from(`{"status":"success",${content.slice(1, -1)},"meta":${meta}}`),
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

  function cached(endpoint: AnyEndpoint, input: Record<string, unknown>): CatalogResult | undefined {
    const key = cacheKey(endpoint, input);
    const found = cache.lookup(key);
    if (found === undefined) return undefined;
    onLookup(found.freshness === 'fresh' ? 'hit' : 'stale');
    if (found.freshness === 'fresh') return { answer: found.answer, cacheStatus: 'HIT' };
    cache.refresh(key, () =>
      fetchAnswer(endpoint, input).catch((error: unknown) => {
        logger.warn({ err: error, key }, 'background refresh failed; the stale answer stays');
        throw error;
      }),
    );
    return { answer: found.answer, cacheStatus: 'STALE' };
  }

  async function fetch(endpoint: AnyEndpoint, input: Record<string, unknown>): Promise<CatalogResult> {
    onLookup('miss');
    const answer = await cache.load(cacheKey(endpoint, input), () => fetchAnswer(endpoint, input));
    return { answer, cacheStatus: 'MISS' };
  }

  return { cached, fetch };
}

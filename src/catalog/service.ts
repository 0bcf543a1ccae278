import type { FetchPriority, UpstreamClient, UpstreamPage } from '../upstream/client.js';
import type { SitePaths } from '../upstream/sitePaths.js';
import { UpstreamNotFoundError, UpstreamTimeoutError } from '../upstream/errors.js';
import type { CatalogAnswer } from './answer.js';
import { createAnswerLifecycle, type AnswerLifecycle, type AnswerLifecycleDeps, type FetchedAnswer } from './answerLifecycle.js';
import type { AnyEndpoint } from './endpoints/index.js';
import { checkParseRoom, parsePage } from './pageParser.js';

/** The catalog's answers: their lifecycle (src/catalog/answerLifecycle.ts) over the site's pages, fetched and parsed here. */
export interface CatalogService extends AnswerLifecycle {
  /**
   * Whether fetching `endpoint` would first look up a path of the site (src/upstream/sitePaths.ts),
   * and that lookup on its own: for the crawler, which paces every upstream request it causes.
   */
  pathLookup(endpoint: AnyEndpoint): ((priority: FetchPriority) => Promise<void>) | null;
}

export interface CatalogServiceDeps extends Omit<AnswerLifecycleDeps, 'fetchAnswer' | 'gaveUp'> {
  upstream: UpstreamClient;
  /** The site's paths (learned, or set by a variable), which fetch the pages built on them. */
  paths: SitePaths;
  ttlSeconds: (endpoint: AnyEndpoint) => number;
  /** The page deadline (UPSTREAM_TIMEOUT_S): a wait for another instance's fetch ends there. */
  deadlineMs: number;
}

export function createCatalogService(deps: CatalogServiceDeps): CatalogService {
  const { upstream, paths, logger, ttlSeconds, now, deadlineMs } = deps;

  async function fetchAnswer(endpoint: AnyEndpoint, input: Record<string, unknown>, priority: FetchPriority): Promise<FetchedAnswer> {
    // The route validated `input` with this endpoint's own schema, so the cast is exact.
    const typedInput = input as never;
    // No fetch for a page that could not be parsed soon: the site is not asked for nothing.
    checkParseRoom();
    const started = performance.now();
    const page = await fetchPage(endpoint, typedInput, priority);
    const durationMs = Math.round(performance.now() - started);
    const fetchedAt = now();
    const parsed = await parsePage(endpoint, { ...page, fetchedAt }, input);
    if (parsed.missing.length > 0) {
      logger.warn({ endpoint: endpoint.path, source: page.url, missing: parsed.missing }, 'optional upstream blocks missing');
    }
    const answer: CatalogAnswer = {
      body: parsed.body,
      etag: parsed.etag,
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

  const gaveUp = (endpoint: AnyEndpoint, input: Record<string, unknown>) =>
    new UpstreamTimeoutError(
      `No answer from the upstream within ${deadlineMs} ms`,
      new URL(endpoint.upstreamPath(input as never, paths.site()), upstream.origin).href,
    );

  function pathLookup(endpoint: AnyEndpoint): ((priority: FetchPriority) => Promise<void>) | null {
    const needs = endpoint.sitePath;
    return needs === undefined || !paths.unknown(needs) ? null : (priority) => paths.learn(needs, priority);
  }

  return { ...createAnswerLifecycle({ ...deps, fetchAnswer, gaveUp }), pathLookup };
}

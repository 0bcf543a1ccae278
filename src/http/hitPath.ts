import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { AnyEndpoint } from '../catalog/endpoints/index.js';
import type { CatalogResult, CatalogService } from '../catalog/service.js';
import type { Logger } from '../config/logger.js';
import type { Metrics } from '../metrics.js';
import { errorAnswer, sendErrorEnvelope } from './errorHandler.js';
import type { Quota } from './middleware/rateLimit.js';
import { requestIdOf } from './middleware/requestId.js';
import { logRequest, type RequestFinishedHook, type RequestLogFields, type RequestLogLine } from './middleware/requestLog.js';
import { observeAnswer } from './middleware/requestMetrics.js';
import { CATALOG_HEADERS, sendCatalogAnswer, setHeaders } from './catalogAnswer.js';
import { queryOf, resolveCatalogRequest } from './catalogRequest.js';
import type { FeedDefinition } from '../feeds/table.js';
import type { FeedFormat } from '../feeds/model.js';
import type { FeedService, ResolvedFeed } from '../feeds/service.js';
import { writeFeedAnswer } from './feedAnswer.js';
import { resolveFeedRequest } from './feedRequest.js';
import { originOf, variesByHost, type OriginRule } from './requestOrigin.js';

export interface HitPathDeps {
  catalog: CatalogService;
  feeds: FeedService;
  /** The Express app's origin rule, so that a feed names the origin the Express path would. */
  origin: OriginRule;
  /** The same quota instance the Express catalog router uses, so both paths count into one store. */
  quota: Quota;
  logger: Logger;
  metrics: Metrics;
  now: () => number;
  /** The request log's "finished" hook, as on the Express path (the status page's traffic counts). */
  onFinished?: RequestFinishedHook;
}

interface ValidRequest {
  endpoint: AnyEndpoint;
  input: Record<string, unknown>;
}

interface ValidFeedRequest {
  feed: FeedDefinition;
  format: FeedFormat;
  input: Record<string, unknown>;
}

// Distinct valid catalog URLs seen lately; enough for the working set, small in memory.
const REMEMBERED_URLS = 10_000;

/**
 * Answers GET/HEAD /catalog requests whose answer is cached (fresh, or stale while it refreshes)
 * before Express sees them, because Express's per-request routing costs more than a whole cached
 * answer. Everything else (misses, refusals, other routes and methods) goes on to the Express app
 * untouched. The request is resolved by the same resolver as on the Express path, the same
 * functions write both paths' headers, log line, metrics and answer, and both count into one quota
 * store with the same key and headers. Remembering each URL's resolution is for speed only: a URL
 * always resolves to the same endpoint and input.
 */
export function withCachedHits(app: RequestListener, deps: HitPathDeps): RequestListener {
  const validRequests = new LRUCache<string, ValidRequest>({ max: REMEMBERED_URLS });
  const validFeedRequests = new LRUCache<string, ValidFeedRequest>({ max: REMEMBERED_URLS });
  // One "finished" listener per answer serves the log line, the metrics and the hook.
  const finished = (line: RequestLogLine) => {
    observeAnswer(deps.metrics, line.route, line.method ?? 'GET', line.status, line.durationMs);
    deps.onFinished?.(line);
  };
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return app(req, res);
    const url = req.url ?? '/';
    if (url.startsWith('/feeds/')) {
      // The feed names its own URL without the query, which changes nothing else.
      const path = url.split('?', 1)[0]!;
      const rememberedFeed = validFeedRequests.get(path);
      const validFeed = rememberedFeed ?? validateFeed(path);
      const resolved = validFeed && deps.feeds.cached(validFeed.feed, validFeed.input);
      if (!validFeed || !resolved) return app(req, res);
      if (!rememberedFeed) validFeedRequests.set(path, validFeed);
      void answerFeedFromCache(req, res, path, validFeed, resolved, deps, finished);
      return;
    }
    const remembered = validRequests.get(url);
    const valid = remembered ?? validate(url);
    const result = valid && deps.catalog.cached(valid.endpoint, valid.input);
    if (!valid || !result) return app(req, res);
    if (!remembered) validRequests.set(url, valid);
    void answerFromCache(req, res, valid.endpoint.path, result, deps, finished);
  };
}

/** The endpoint and validated input of a GET to `url`; undefined for anything the Express path must answer. */
function validate(url: string): ValidRequest | undefined {
  const queryStart = url.indexOf('?');
  const resolved = resolveCatalogRequest('GET', queryStart < 0 ? url : url.slice(0, queryStart), queryOf(url));
  return resolved?.error === undefined ? resolved : undefined;
}

/** The feed and validated input of a GET to `path`; undefined for anything the Express path must answer. */
function validateFeed(path: string): ValidFeedRequest | undefined {
  const resolved = resolveFeedRequest('GET', path);
  return resolved?.error === undefined ? resolved : undefined;
}

/** What the Express path does for a feed request, from the same writer: id, quota (no count for a 304), headers, feed, log line, metrics. */
async function answerFeedFromCache(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  { feed, format }: ValidFeedRequest,
  resolved: ResolvedFeed,
  deps: HitPathDeps,
  finished: RequestFinishedHook,
): Promise<void> {
  const started = performance.now();
  const fields: RequestLogFields = { requestId: requestIdOf(req), route: `${feed.path}.{format}` };
  const head = [...CATALOG_HEADERS, 'X-Request-Id', fields.requestId];
  try {
    const place = { format, origin: originOf(req, deps.origin), variesByHost: variesByHost(deps.origin), path };
    const refusal = await writeFeedAnswer(req, res, resolved, place, { feeds: deps.feeds, quota: deps.quota, now: deps.now }, head);
    if (refusal !== undefined) refuse(res, refusal.refused, [...head, ...refusal.headers], fields, deps.logger);
    else fields.cache = resolved.result.cacheStatus;
  } catch (error) {
    refuse(res, error, head, fields, deps.logger);
  }
  logRequest(deps.logger, req, res, fields, started, finished);
}

/**
 * What the Express path does for a catalog request: id, quota, headers, answer, log line, metrics.
 * The answer is written at once, so the log line follows it directly rather than from a 'finish'
 * listener.
 */
async function answerFromCache(
  req: IncomingMessage,
  res: ServerResponse,
  route: string,
  result: CatalogResult,
  deps: HitPathDeps,
  finished: RequestFinishedHook,
): Promise<void> {
  const started = performance.now();
  // Filled in as the request goes (cache or error code), then logged.
  const fields: RequestLogFields = { requestId: requestIdOf(req), route };
  const head = [...CATALOG_HEADERS, 'X-Request-Id', fields.requestId];
  try {
    const { headers, refused } = await deps.quota.count(req);
    head.push(...headers);
    if (refused !== undefined) {
      refuse(res, refused, head, fields, deps.logger);
    } else {
      fields.cache = result.cacheStatus;
      sendCatalogAnswer(req, res, result, deps.now(), head);
    }
  } catch (error) {
    refuse(res, error, head, fields, deps.logger);
  }
  logRequest(deps.logger, req, res, fields, started, finished);
}

/** The contract's error envelope instead of the answer: the quota's 429, or its store failing. */
function refuse(res: ServerResponse, error: unknown, headers: readonly string[], fields: RequestLogFields, logger: Logger): void {
  // Only a failure while the answer was being written gets here with its head sent: nothing can be added.
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { described, envelope } = errorAnswer(error, fields.route, fields.requestId, logger);
  fields.errorCode = described.code;
  setHeaders(res, headers);
  sendErrorEnvelope(res, described, envelope);
}

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import type { AnyEndpoint } from '../catalog/endpoints/index.js';
import type { CatalogService } from '../catalog/service.js';
import type { Logger } from '../config/logger.js';
import type { Metrics } from '../metrics.js';
import { errorAnswer, sendErrorEnvelope } from './errorHandler.js';
import { assignRequestId } from './middleware/requestId.js';
import { logWhenFinished, type RequestFinishedHook } from './middleware/requestLog.js';
import { observeWhenFinished } from './middleware/requestMetrics.js';
import { matchEndpoint, sendCatalogAnswer, setCatalogHeaders } from './routes/catalog.js';

export interface HitPathDeps {
  catalog: CatalogService;
  /** The same quota instance the Express catalog router uses, so both paths count into one store. */
  quota: RequestHandler;
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

// Distinct valid catalog URLs seen lately; enough for the working set, small in memory.
const REMEMBERED_URLS = 10_000;

/**
 * Answers GET/HEAD /catalog requests whose answer is cached (fresh, or stale while it refreshes)
 * before Express sees them. Express 5's per-request routing alone costs more than a whole cached
 * answer, which would cap hit throughput far below what the cache can give. Everything else
 * (misses, invalid queries, other routes and methods) goes on to the Express app untouched, and
 * the same functions write both paths' headers, quota, log line and answer.
 */
export function withCachedHits(app: RequestListener, deps: HitPathDeps): RequestListener {
  // A URL's validation is done once: the validated query of each valid URL is remembered.
  const validRequests = new LRUCache<string, ValidRequest>({ max: REMEMBERED_URLS });
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return app(req, res);
    const url = req.url ?? '/';
    const remembered = validRequests.get(url);
    const valid = remembered ?? validate(url);
    const result = valid && deps.catalog.cached(valid.endpoint, valid.input);
    if (!valid || !result) return app(req, res);
    if (!remembered) validRequests.set(url, valid);
    answerFromCache(req, res, valid.endpoint, () => sendCatalogAnswer(req, res, result, deps.now()), deps);
  };
}

function validate(url: string): ValidRequest | undefined {
  const queryStart = url.indexOf('?');
  const matched = matchEndpoint(queryStart < 0 ? url : url.slice(0, queryStart));
  if (matched === undefined) return undefined;
  // node:querystring is the parser behind Express's 'simple' query parser: the same input, the same rules.
  const query = parseQueryString(queryStart < 0 ? '' : url.slice(queryStart + 1));
  const input = matched.endpoint.input.safeParse({ ...query, ...matched.params });
  return input.success ? { endpoint: matched.endpoint, input: input.data } : undefined;
}

/** What the Express path does for a catalog request, in its order: id, log line, metrics, headers, quota, answer. */
function answerFromCache(req: IncomingMessage, res: ServerResponse, endpoint: AnyEndpoint, send: () => void, deps: HitPathDeps): void {
  const requestId = assignRequestId(req, res);
  let errorCode: string | undefined;
  logWhenFinished(deps.logger, req, res, () => ({ requestId, route: endpoint.path, errorCode }), deps.onFinished);
  observeWhenFinished(deps.metrics, req, res, () => endpoint.path);
  setCatalogHeaders(res);
  void deps.quota(req as never, res as never, (error?: unknown) => {
    if (error === undefined) return send();
    const { described, envelope } = errorAnswer(error, endpoint.path, requestId, deps.logger);
    errorCode = described.code;
    sendErrorEnvelope(res, described, envelope);
  });
}

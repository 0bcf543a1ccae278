import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
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
import { CATALOG_HEADERS, matchEndpoint, sendCatalogAnswer, setHeaders } from './routes/catalog.js';

export interface HitPathDeps {
  catalog: CatalogService;
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

// Distinct valid catalog URLs seen lately; enough for the working set, small in memory.
const REMEMBERED_URLS = 10_000;

/**
 * Answers GET/HEAD /catalog requests whose answer is cached (fresh, or stale while it refreshes)
 * before Express sees them. Express 5's per-request routing alone costs more than a whole cached
 * answer, which would cap hit throughput far below what the cache can give. Everything else
 * (misses, invalid queries, other routes and methods) goes on to the Express app untouched. The
 * same functions write both paths' headers, log line, metrics and answer, and both count into one
 * quota store with the same key and headers.
 */
export function withCachedHits(app: RequestListener, deps: HitPathDeps): RequestListener {
  // A URL's validation is done once: the validated query of each valid URL is remembered.
  const validRequests = new LRUCache<string, ValidRequest>({ max: REMEMBERED_URLS });
  // One "finished" listener per answer serves the log line, the metrics and the hook.
  const finished = (line: RequestLogLine) => {
    observeAnswer(deps.metrics, line.route, line.method ?? 'GET', line.status, line.durationMs);
    deps.onFinished?.(line);
  };
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return app(req, res);
    const url = req.url ?? '/';
    const remembered = validRequests.get(url);
    const valid = remembered ?? validate(url);
    const result = valid && deps.catalog.cached(valid.endpoint, valid.input);
    if (!valid || !result) return app(req, res);
    if (!remembered) validRequests.set(url, valid);
    void answerFromCache(req, res, valid.endpoint.path, result, deps, finished);
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

/**
 * What the Express path does for a catalog request: id, quota, headers, answer, log line, metrics.
 * No header is set before the answer's one `writeHead`, so Node formats the head from the array as
 * it is rather than from a header map built one `setHeader` at a time. The answer is written at
 * once, so the log line follows it directly rather than from a 'finish' listener.
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

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../config/logger.js';
import type { Metrics } from '../metrics.js';
import { API_HEADERS, isConditional, isFresh, writeRepresentation } from './apiAnswer.js';
import { errorResponse, writeErrorResponse } from './errorHandler.js';
import { RouteNotFoundError } from './errors.js';
import { closeIfBodyUnread } from './middleware/body.js';
import type { Quota } from './middleware/rateLimit.js';
import { requestIdOf } from './middleware/requestId.js';
import { logRequest, type RequestFinishedHook, type RequestLogFields, type RequestLogLine } from './middleware/requestLog.js';
import { observeAnswer } from './middleware/requestMetrics.js';
import type { ApiResource, Resolution } from './resources/resource.js';

export interface DoorDeps {
  /** The resource table: one entry per kind of API resource, each owning its first path segment. */
  resources: readonly ApiResource[];
  /** The API quota, counted once per request that is not a free 304. */
  quota: Quota;
  logger: Logger;
  metrics: Metrics;
  /** The request log's "finished" hook, as on the Express path (the status page's traffic counts). */
  onFinished?: RequestFinishedHook;
}

/** A valid request as the door remembers it for its URL. */
interface Known {
  resource: ApiResource;
  pathname: string;
  resolution: Resolution<unknown> & { error?: undefined };
}

// Valid resolutions per URL, for speed only (a URL always resolves to the same request): bounded in
// bytes, which bounds the entries too (each counts at least ENTRY_OVERHEAD_BYTES: 8,192 at most),
// kept only for a request that was answered (never for a refused one), and never for a URL longer
// than any real client sends, so junk in a query costs no memory. No count bound besides: lru-cache
// allocates every slot of one (`max`) when the cache is made.
const REMEMBERED_BYTES = 4 * 1024 * 1024;
const REMEMBERED_URL_MAX = 1024;
// The entry, its resolution and validated input, and lru-cache's bookkeeping, estimated.
const ENTRY_OVERHEAD_BYTES = 512;

/** The log line's and metrics' route of a request that names nothing: one label, whatever the path. */
const UNMATCHED = 'unmatched';

// What a cross-origin script may send: revalidation (If-None-Match), its own request id, and the
// cache directives browsers add on a reload; the CORS-safelisted headers need no listing.
const PREFLIGHT_HEADERS = [
  'Access-Control-Allow-Methods',
  'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers',
  'If-None-Match, X-Request-Id, Cache-Control, Pragma',
  // Browsers cap how long they keep a preflight (Chromium at 2 hours); this asks for the longest.
  'Access-Control-Max-Age',
  '86400',
];

/**
 * The segment of `owned` a request path falls under: its first segment names one (any case) at
 * some step of resolving it as a file server would (percent-decoded, empty and "." segments
 * dropped, ".." going up). Such a path is the API's and nothing else's, so neither
 * /catalog/%2e%2e/css/site.css nor //catalog/x can slip past the door to a static file or a page.
 * @internal exported for the tests: the catalog-path test checks it on paths no HTTP client sends as written.
 */
export function ownedSegmentOf(pathname: string, owned: ReadonlySet<string>): string | undefined {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A path that does not decode is judged as written.
  }
  const kept: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      kept.pop();
      continue;
    }
    kept.push(segment);
    if (kept.length === 1 && owned.has(segment.toLowerCase())) return segment.toLowerCase();
  }
  return undefined;
}

/**
 * The one door of the API: every request under a resource's segment (/catalog/*, /feeds/*…) is
 * answered here, hits and misses alike; everything else goes on to `next` (Express: pages,
 * reports, health, docs). Per request, in this order:
 * 1. resolve once: match and validation (remembered per URL once answered); a request that is
 *    not conditional only once it is counted;
 * 2. a conditional request answered 304 from what the service already holds is free: looked up
 *    without starting a refresh or a fetch;
 * 3. everything else is counted by the quota before anything can fetch, refresh or be remembered;
 *    past it, 429 and nothing else happens (its query is not even parsed);
 * 4. the answer, hit or miss, from one writer with the same headers (API, request id, quota,
 *    cache), or the error from the one error builder; one log line and one observation.
 */
export function createDoor(next: RequestListener, deps: DoorDeps): RequestListener {
  const bySegment = new Map(deps.resources.map((resource) => [resource.segment, resource]));
  const segments = new Set(bySegment.keys());
  const known = new LRUCache<string, Known>({
    maxSize: REMEMBERED_BYTES,
    sizeCalculation: (_known, url) => url.length + ENTRY_OVERHEAD_BYTES,
  });
  const remember = (url: string, entry: Known) => {
    if (url.length <= REMEMBERED_URL_MAX) known.set(url, entry);
  };
  const finished = (line: RequestLogLine) => {
    observeAnswer(deps.metrics, line.route, line.method ?? 'GET', line.status, line.durationMs);
    deps.onFinished?.(line);
  };

  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    url: string,
    entry: Known | undefined,
    resource: ApiResource,
    pathname: string,
    rawQuery: string,
  ) {
    const started = performance.now();
    const requestId = requestIdOf(req);
    const head = [...API_HEADERS, 'X-Request-Id', requestId];
    const fields: RequestLogFields = { requestId, route: entry?.resolution.route ?? UNMATCHED };
    // No API request has a body: whatever it answers, one that is still coming is never read.
    closeIfBodyUnread(req, res);
    const method = req.method ?? 'GET';
    let resolution: Resolution<unknown> | undefined = entry?.resolution;
    try {
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
        // A CORS preflight is the browser asking, not the client's request: never counted.
        res.writeHead(204, [...head, ...PREFLIGHT_HEADERS]);
        res.end();
      } else {
        const conditional = isConditional(req);
        // Only a conditional request is resolved before it is counted: its 304 from what is held is free.
        if (conditional) resolution ??= resource.resolve(method, pathname, rawQuery);
        if (resolution !== undefined && resolution.error === undefined && conditional) {
          const held = resource.answer(resolution.request, req, pathname, { sideEffects: false });
          if (held !== undefined && isFresh(req, held)) {
            head.push(...(await deps.quota.peek(req)));
            fields.route = resolution.route;
            fields.cache = held.cacheStatus;
            writeRepresentation(req, res, held, head);
            if (entry === undefined) remember(url, { resource, pathname, resolution });
            return logRequest(deps.logger, req, res, fields, started, finished);
          }
        }
        const { headers, refused } = await deps.quota.count(req);
        head.push(...headers);
        if (refused !== undefined) throw refused;
        resolution ??= resource.resolve(method, pathname, rawQuery);
        if (resolution?.route !== undefined) fields.route = resolution.route;
        if (resolution === undefined) throw new RouteNotFoundError(method, pathname);
        if (resolution.error !== undefined) throw resolution.error;
        if (entry === undefined) remember(url, { resource, pathname, resolution });
        const pending = resource.answer(resolution.request, req, pathname);
        // A cached answer is there at once; awaiting it would only cost a turn of the event loop.
        const representation = pending instanceof Promise ? await pending : pending;
        fields.cache = representation.cacheStatus;
        fields.upstream = representation.upstream;
        writeRepresentation(req, res, representation, head);
      }
    } catch (error) {
      // A request refused before it was resolved (past its quota, or not counted) is labelled by its
      // path alone, resolved without its query: a refusal never parses a query, and the label is the same.
      fields.route = (resolution ?? resource.resolve(method, pathname, ''))?.route ?? fields.route;
      refuse(res, error, head, fields, pathname, deps.logger);
    }
    logRequest(deps.logger, req, res, fields, started, finished);
  }

  return (req, res) => {
    const url = req.url ?? '/';
    // A URL too long to be remembered is not looked up: hashing it would cost as much as it is long.
    const entry = (req.method === 'GET' || req.method === 'HEAD') && url.length <= REMEMBERED_URL_MAX ? known.get(url) : undefined;
    if (entry !== undefined) return void answer(req, res, url, entry, entry.resource, entry.pathname, '');
    const queryStart = url.indexOf('?');
    const pathname = queryStart < 0 ? url : url.slice(0, queryStart);
    const segment = ownedSegmentOf(pathname, segments);
    const resource = segment === undefined ? undefined : bySegment.get(segment);
    if (resource === undefined) return next(req, res);
    void answer(req, res, url, undefined, resource, pathname, queryStart < 0 ? '' : url.slice(queryStart + 1));
  };
}

/** The error answer instead: the quota's 429, a refusal of the request, a failure of the upstream or of ours. */
function refuse(
  res: ServerResponse,
  error: unknown,
  head: readonly string[],
  fields: RequestLogFields,
  pathname: string,
  logger: Logger,
): void {
  // Only a failure while the answer was being written gets here with its head sent: nothing can be added.
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const response = errorResponse(error, fields.route === UNMATCHED ? pathname : fields.route, fields.requestId, logger);
  fields.errorCode = response.described.code;
  writeErrorResponse(res, response, head);
}

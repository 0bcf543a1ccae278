import type { IncomingMessage, ServerResponse } from 'node:http';
import { Router } from 'express';
import fresh from 'fresh';
import { FEED_FORMATS } from '../../feeds/model.js';
import type { FeedService } from '../../feeds/service.js';
import { CATALOG_HEADERS, setHeaders } from '../catalogAnswer.js';
import { RouteNotFoundError } from '../errors.js';
import { resolveFeedRequest } from '../feedRequest.js';
import { requestOrigin } from '../requestOrigin.js';
import type { Quota } from '../middleware/rateLimit.js';

const isConditional = (req: IncomingMessage) => req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;

/**
 * /feeds/*: each feed in Atom, RSS and JSON Feed, from the catalog answer it is built on. A request
 * counts against the API quota like /catalog/*, except a conditional one answered 304: so that it
 * is not counted before its answer is known, only an unconditional request is counted first (and
 * refused before it can cause an upstream fetch).
 */
export function createFeedsRouter(service: FeedService, quota: Quota, now: () => number): Router {
  const router = Router();
  router.use('/feeds', async (req, res) => {
    setHeaders(res, CATALOG_HEADERS);
    let counted = false;
    const count = async () => {
      counted = true;
      const { headers, refused } = await quota.count(req);
      setHeaders(res, headers);
      if (refused !== undefined) throw refused;
    };
    const request = resolveFeedRequest(req.method, req.baseUrl + req.path);
    if (request === undefined || !isConditional(req)) await count();
    // A path under /feeds that names no feed is the JSON 404, never a page or a static file.
    if (request === undefined) throw new RouteNotFoundError(req.method, req.baseUrl + req.path);
    // The log line and the metrics name the feed by its path with the extension as a parameter.
    if (request.feed !== undefined) res.locals.route = `${request.feed.path}.{format}`;
    let resolved;
    try {
      if (request.error !== undefined) throw request.error;
      resolved = await service.resolve(request.feed, request.input);
    } catch (error) {
      // A refused conditional request is counted like any other answer that is not a 304.
      if (!counted) await count();
      throw error;
    }
    const { result, model } = resolved;
    if (result.cacheStatus === 'MISS') res.locals.upstream = result.answer.upstream;
    const base = requestOrigin(req);
    const { format } = request;
    const rendered = service.render(model, format, { self: `${base}${req.baseUrl}${req.path}`, baseUrl: base });
    const lastModified = model.updated.toUTCString();
    const ageSeconds = Math.max(0, Math.floor((now() - result.answer.fetchedAt) / 1000));
    const head = [
      'X-Cache', result.cacheStatus,
      'Age', String(ageSeconds),
      'Cache-Control', `public, max-age=${Math.max(0, result.answer.ttlSeconds - ageSeconds)}`,
      'ETag', rendered.etag,
      'Last-Modified', lastModified,
    ];
    if (fresh(req.headers, { etag: rendered.etag, 'last-modified': lastModified })) {
      sendHead(res, 304, [...head, ...(await quota.peek(req))]);
      return;
    }
    if (!counted) await count();
    sendHead(res, 200, [...head, 'Content-Type', FEED_FORMATS[format].mediaType, 'Content-Length', String(rendered.body.length)], rendered.body);
  });
  return router;
}

function sendHead(res: ServerResponse, status: number, head: readonly string[], body?: Buffer): void {
  setHeaders(res, head);
  res.writeHead(status);
  res.end(body);
}

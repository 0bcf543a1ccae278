import type { IncomingMessage, ServerResponse } from 'node:http';
import { Router, type Request } from 'express';
import fresh from 'fresh';
import { isFeedFormat, FEED_FORMATS, type FeedFormat } from '../../feeds/model.js';
import type { FeedService } from '../../feeds/service.js';
import { feeds, type FeedDefinition } from '../../feeds/table.js';
import { MethodNotAllowedError } from '../errors.js';
import type { Quota } from '../middleware/rateLimit.js';
import { validateQuery } from '../middleware/validateQuery.js';
import { setCatalogHeaders, setHeaders } from './catalog.js';

const ALLOWED_METHODS = 'GET, HEAD';

export interface FeedRequest {
  feed: FeedDefinition;
  format: FeedFormat;
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
}

const PATH_PARAMETER = /\{(\w+)\}$/;
const fixedFeeds = new Map<string, FeedDefinition>();
const parametrisedFeeds = new Map<string, { feed: FeedDefinition; name: string }>();
for (const feed of feeds) {
  const name = PATH_PARAMETER.exec(feed.path)?.[1];
  if (name === undefined) fixedFeeds.set(feed.path, feed);
  else parametrisedFeeds.set(feed.path.slice(0, -name.length - 2), { feed, name });
}

/** The feed and format a request path names ("/feeds/series/x.atom"); undefined for no feed or an unknown extension. */
export function matchFeed(pathname: string): FeedRequest | undefined {
  const dot = pathname.lastIndexOf('.');
  const lastSlash = pathname.lastIndexOf('/');
  if (dot < lastSlash) return undefined;
  const extension = pathname.slice(dot + 1);
  if (!isFeedFormat(extension)) return undefined;
  const stem = pathname.slice(0, dot);
  const fixed = fixedFeeds.get(stem);
  if (fixed !== undefined) return { feed: fixed, format: extension, params: {} };
  const parametrised = parametrisedFeeds.get(stem.slice(0, lastSlash + 1));
  if (parametrised === undefined) return undefined;
  try {
    return { feed: parametrised.feed, format: extension, params: { [parametrised.name]: decodeURIComponent(stem.slice(lastSlash + 1)) } };
  } catch {
    return undefined;
  }
}

const isConditional = (req: IncomingMessage) => req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;

const baseUrlOf = (req: Request) => `${req.protocol}://${req.get('host')}`;

/**
 * /feeds/*: each feed in Atom, RSS and JSON Feed, from the catalog answer it is built on. A request
 * counts against the API quota like /catalog/*, except a conditional one answered 304: so that it
 * is not counted before its answer is known, only an unconditional request is counted first (and
 * refused before it can cause an upstream fetch).
 */
export function createFeedsRouter(service: FeedService, quota: Quota, now: () => number): Router {
  const router = Router();
  router.use('/feeds', async (req, res, next) => {
    setCatalogHeaders(res);
    let counted = false;
    const count = async () => {
      counted = true;
      const { headers, refused } = await quota.count(req);
      setHeaders(res, headers);
      if (refused !== undefined) throw refused;
    };
    const matched = matchFeed(req.baseUrl + req.path);
    if (matched === undefined || !isConditional(req)) await count();
    if (matched === undefined) return next();
    const { feed, format, params } = matched;
    res.locals.route = `${feed.path}.{format}`;
    let resolved;
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new MethodNotAllowedError(req.method, `${feed.path}.${format}`, ALLOWED_METHODS);
      resolved = await service.resolve(feed, validateQuery(feed.endpoint.input, params) as Record<string, unknown>);
    } catch (error) {
      // A refused conditional request is counted like any other answer that is not a 304.
      if (!counted) await count();
      throw error;
    }
    const { result, model } = resolved;
    if (result.cacheStatus === 'MISS') res.locals.upstream = result.answer.upstream;
    const base = baseUrlOf(req);
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

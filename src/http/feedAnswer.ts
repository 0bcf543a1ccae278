import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import { FEED_FORMATS, type FeedFormat } from '../feeds/model.js';
import type { FeedService, ResolvedFeed } from '../feeds/service.js';
import { cacheHeaders } from './catalogAnswer.js';
import type { RateLimitedError } from './errors.js';
import type { Quota } from './middleware/rateLimit.js';

export interface FeedAnswerDeps {
  feeds: FeedService;
  quota: Quota;
  now: () => number;
}

/** Where the feed is served: its format, and its own URL (the service's origin and the request path). */
export interface FeedPlace {
  format: FeedFormat;
  origin: string;
  /** Whether `origin` came from the request's Host (no PUBLIC_URL): the feed then says `Vary: Host`. */
  variesByHost: boolean;
  path: string;
}

/** A request over its quota: the refusal and the X-RateLimit-* headers it goes out with. */
export interface FeedRefusal {
  refused: RateLimitedError;
  headers: string[];
}

/**
 * Writes a feed for the cached-hit path and the Express route alike: 304 when If-None-Match or
 * If-Modified-Since matches, not counted (the quota's headers as they stand); otherwise the feed,
 * counted unless `countedHeaders` says the request already was. Over the quota, nothing is
 * written and the refusal is returned, for the caller's error writer. `head` (names and values in
 * turn) goes out with the answer.
 */
export async function writeFeedAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  { result, model }: ResolvedFeed,
  { format, origin, variesByHost, path }: FeedPlace,
  deps: FeedAnswerDeps,
  head: readonly string[],
  countedHeaders?: readonly string[],
): Promise<FeedRefusal | undefined> {
  const rendered = deps.feeds.render(model, format, { self: `${origin}${path}`, baseUrl: origin });
  const lastModified = model.updated.toUTCString();
  // Its links are on the origin: a shared cache must not hand a feed built for a forged Host to anyone else.
  const vary = variesByHost ? ['Vary', 'Host'] : [];
  const feedHead = [...head, ...cacheHeaders(result, deps.now()), ...vary, 'ETag', rendered.etag, 'Last-Modified', lastModified];
  if (fresh(req.headers, { etag: rendered.etag, 'last-modified': lastModified })) {
    res.writeHead(304, [...feedHead, ...(countedHeaders ?? (await deps.quota.peek(req)))]);
    res.end();
    return undefined;
  }
  let quotaHeaders = countedHeaders;
  if (quotaHeaders === undefined) {
    const { headers, refused } = await deps.quota.count(req);
    if (refused !== undefined) return { refused, headers };
    quotaHeaders = headers;
  }
  res.writeHead(200, [...feedHead, ...quotaHeaders, 'Content-Type', FEED_FORMATS[format].mediaType, 'Content-Length', String(rendered.body.length)]);
  res.end(rendered.body);
  return undefined;
}

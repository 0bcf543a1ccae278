import type { IncomingMessage } from 'node:http';
import type { NoSideEffects } from '../../catalog/answer.js';
import { FEED_FORMATS, type FeedFormat } from '../../feeds/model.js';
import type { FeedLocation } from '../../feeds/render.js';
import type { FeedAnswer, FeedService } from '../../feeds/service.js';
import type { FeedDefinition } from '../../feeds/table.js';
import { ageSecondsOf, cacheHeaders, type Representation } from '../apiAnswer.js';
import { resolveFeedRequest } from '../feedRequest.js';
import { originOf, variesByHost, type OriginRule } from '../requestOrigin.js';
import type { ApiResource } from './resource.js';

export interface ResolvedFeedRequest {
  feed: FeedDefinition;
  format: FeedFormat;
  input: Record<string, unknown>;
}

// The log line and the metrics name a feed by its path with the extension as a parameter.
const routeOf = (feed: FeedDefinition) => `${feed.path}.{format}`;

/**
 * /feeds/*: each feed in Atom, RSS and JSON Feed, built from the catalog answer it is made of (so
 * from its cache, or one upstream fetch). A feed names its own URL: the service's origin
 * (`originOf`) and the path, without the query.
 */
export function feedResource(feeds: FeedService, origin: OriginRule, now: () => number): ApiResource<ResolvedFeedRequest> {
  // Its links are on the origin: a shared cache must not hand a feed built for a forged Host to anyone else.
  const vary = variesByHost(origin) ? ['Vary', 'Host'] : [];
  const location = (req: IncomingMessage, pathname: string): FeedLocation => {
    const base = originOf(req, origin);
    return { self: `${base}${pathname}`, baseUrl: base };
  };
  const representation = (format: FeedFormat, { result, model, rendered }: FeedAnswer): Representation => ({
    body: rendered.body,
    contentType: FEED_FORMATS[format].mediaType,
    etag: rendered.etag,
    lastModified: model.updated.toUTCString(),
    headers: [...cacheHeaders(result, ageSecondsOf(result.answer, now())), ...vary],
    cacheStatus: result.cacheStatus,
    upstream: result.upstream,
  });
  function answer(request: ResolvedFeedRequest, req: IncomingMessage, pathname: string, options: NoSideEffects): Representation | undefined;
  function answer(request: ResolvedFeedRequest, req: IncomingMessage, pathname: string): Promise<Representation>;
  function answer(
    { feed, format, input }: ResolvedFeedRequest,
    req: IncomingMessage,
    pathname: string,
    options?: NoSideEffects,
  ): Representation | Promise<Representation> | undefined {
    if (options === undefined)
      return feeds.answer(feed, input, format, location(req, pathname)).then((built) => representation(format, built));
    const held = feeds.answer(feed, input, format, location(req, pathname), options);
    return held && representation(format, held);
  }
  return {
    segment: 'feeds',
    resolve(method, pathname) {
      const resolved = resolveFeedRequest(method, pathname);
      if (resolved === undefined) return undefined;
      if (resolved.error !== undefined) return { route: resolved.feed && routeOf(resolved.feed), error: resolved.error };
      return { route: routeOf(resolved.feed), request: resolved };
    },
    answer,
  };
}

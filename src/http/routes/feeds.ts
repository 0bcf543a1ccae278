import type { IncomingMessage } from 'node:http';
import { Router } from 'express';
import { CATALOG_HEADERS, setHeaders } from '../catalogAnswer.js';
import { RouteNotFoundError } from '../errors.js';
import { writeFeedAnswer, type FeedAnswerDeps } from '../feedAnswer.js';
import { resolveFeedRequest } from '../feedRequest.js';
import { originOf, originRuleOf, variesByHost } from '../requestOrigin.js';

export const isConditional = (req: IncomingMessage) => req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;

/**
 * /feeds/* on the Express path: each feed in Atom, RSS and JSON Feed, from the catalog answer it is
 * built on. Cached feeds usually leave earlier, from the hit path in front of Express. A request
 * counts against the API quota like /catalog/*, except a conditional one answered 304: so that it
 * is not counted before its answer is known, only an unconditional request is counted first (and
 * refused before it can cause an upstream fetch).
 */
export function createFeedsRouter(deps: FeedAnswerDeps): Router {
  const router = Router();
  router.use('/feeds', async (req, res) => {
    setHeaders(res, CATALOG_HEADERS);
    let counted: string[] | undefined;
    const count = async () => {
      const { headers, refused } = await deps.quota.count(req);
      setHeaders(res, headers);
      counted = headers;
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
      resolved = await deps.feeds.resolve(request.feed, request.input);
    } catch (error) {
      // A refused conditional request is counted like any other answer that is not a 304.
      if (counted === undefined) await count();
      throw error;
    }
    if (resolved.result.cacheStatus === 'MISS') res.locals.upstream = resolved.result.answer.upstream;
    const rule = originRuleOf(req.app);
    const place = { format: request.format, origin: originOf(req, rule), variesByHost: variesByHost(rule), path: req.baseUrl + req.path };
    const refusal = await writeFeedAnswer(req, res, resolved, place, deps, [], counted);
    if (refusal !== undefined) {
      setHeaders(res, refusal.headers);
      throw refusal.refused;
    }
  });
  return router;
}

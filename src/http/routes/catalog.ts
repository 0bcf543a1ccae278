import { Router, type RequestHandler } from 'express';
import type { CatalogService } from '../../catalog/service.js';
import { CATALOG_HEADERS, sendCatalogAnswer, setHeaders } from '../catalogAnswer.js';
import { queryOf, resolveCatalogRequest } from '../catalogRequest.js';

/**
 * The catalog on the Express path: headers, quota, then the request as the one resolver reads it
 * (catalogRequest.ts) → service → bytes with cache headers. Cached answers usually leave earlier,
 * from the hit path in front of Express (http/hitPath.ts); this route answers the misses, the
 * refusals, and a hit that raced past it.
 */
export function createCatalogRouter(service: CatalogService, quota: RequestHandler, now: () => number): Router {
  const router = Router();
  router.use('/catalog', (_req, res, next) => {
    setHeaders(res, CATALOG_HEADERS);
    next();
  });
  router.use('/catalog', quota);
  router.use('/catalog', async (req, res, next) => {
    const resolved = resolveCatalogRequest(req.method, req.baseUrl + req.path, queryOf(req.originalUrl));
    if (resolved === undefined) return next();
    // The log line and the metrics name the endpoint by its table path, as the cached-hit path does.
    if (resolved.endpoint !== undefined) res.locals.route = resolved.endpoint.path;
    if (resolved.error !== undefined) throw resolved.error;
    const result = service.cached(resolved.endpoint, resolved.input) ?? (await service.fetch(resolved.endpoint, resolved.input));
    if (result.cacheStatus === 'MISS') res.locals.upstream = result.answer.upstream;
    sendCatalogAnswer(req, res, result, now());
  });
  return router;
}

import { Router, type RequestHandler } from 'express';
import type { CatalogService } from '../../catalog/service.js';
import { CATALOG_HEADERS, sendCatalogAnswer, setHeaders } from '../catalogAnswer.js';
import { isCatalogPath, queryOf, resolveCatalogRequest } from '../catalogRequest.js';
import { RouteNotFoundError } from '../errors.js';

/**
 * The catalog on the Express path, for every path under /catalog (isCatalogPath): headers, quota,
 * then the request as the one resolver reads it (catalogRequest.ts) → service → bytes with cache
 * headers; a path that names no endpoint is the JSON 404, never a page or a static file. Cached
 * answers usually leave earlier, from the hit path in front of Express (http/hitPath.ts); this
 * route answers the misses, the refusals, and a hit that raced past it.
 */
export function createCatalogRouter(service: CatalogService, quota: RequestHandler, now: () => number): RequestHandler {
  const catalog = Router();
  catalog.use((_req, res, next) => {
    setHeaders(res, CATALOG_HEADERS);
    next();
  });
  catalog.use(quota);
  catalog.use(async (req, res) => {
    const resolved = resolveCatalogRequest(req.method, req.path, queryOf(req.url));
    if (resolved === undefined) throw new RouteNotFoundError(req.method, req.path);
    // The log line and the metrics name the endpoint by its table path, as the cached-hit path does.
    if (resolved.endpoint !== undefined) res.locals.route = resolved.endpoint.path;
    if (resolved.error !== undefined) throw resolved.error;
    const result = service.cached(resolved.endpoint, resolved.input) ?? (await service.fetch(resolved.endpoint, resolved.input));
    if (result.cacheStatus === 'MISS') res.locals.upstream = result.answer.upstream;
    sendCatalogAnswer(req, res, result, now());
  });
  return (req, res, next) => (isCatalogPath(req.path) ? catalog(req, res, next) : next());
}

import { Router, type Request, type RequestHandler, type Response } from 'express';
import { endpoints } from '../../catalog/endpoints.js';
import type { CatalogResponse, CatalogService } from '../../catalog/service.js';
import { MethodNotAllowedError } from '../errors.js';
import { validateQuery } from '../middleware/validateQuery.js';

const ALLOWED_METHODS = 'GET, HEAD';
// Browsers hide response headers from cross-origin scripts unless they are listed here.
const EXPOSED_HEADERS = 'X-Cache, Age, ETag, Retry-After, X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';

/**
 * Mounts every entry of the endpoint table: validate → service → bytes with cache headers.
 * CORS headers come first so that every /catalog answer carries them, the quota's 429 included.
 */
export function createCatalogRouter(service: CatalogService, quota: RequestHandler): Router {
  const router = Router();
  router.use('/catalog', (_req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    next();
  });
  router.use('/catalog', quota);
  for (const endpoint of endpoints) {
    router.get(endpoint.path, async (req, res) => {
      const query = validateQuery(endpoint.query, req.query);
      const answer = await service.get(endpoint, query);
      res.locals.upstream = answer.upstream;
      sendCatalogResponse(req, res, answer);
    });
    router.all(endpoint.path, (req) => {
      throw new MethodNotAllowedError(req.method, endpoint.path, ALLOWED_METHODS);
    });
  }
  return router;
}

function sendCatalogResponse(req: Request, res: Response, answer: CatalogResponse): void {
  const ageSeconds = Math.max(0, Math.floor((Date.now() - answer.fetchedAt) / 1000));
  res.setHeader('X-Cache', 'MISS');
  res.setHeader('Age', String(ageSeconds));
  res.setHeader('Cache-Control', `public, max-age=${Math.max(0, answer.ttlSeconds - ageSeconds)}`);
  res.setHeader('ETag', answer.etag);
  // req.fresh compares If-None-Match with the ETag just set (Express's own conditional-GET check).
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', answer.body.length);
  res.status(200).end(answer.body);
}

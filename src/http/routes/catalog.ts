import type { IncomingMessage, ServerResponse } from 'node:http';
import { Router, type RequestHandler } from 'express';
import fresh from 'fresh';
import { endpoints, type AnyEndpoint } from '../../catalog/endpoints/index.js';
import type { CatalogResult, CatalogService } from '../../catalog/service.js';
import { MethodNotAllowedError } from '../errors.js';
import { validateQuery } from '../middleware/validateQuery.js';

const ALLOWED_METHODS = 'GET, HEAD';
// Browsers hide response headers from cross-origin scripts unless they are listed here.
const EXPOSED_HEADERS = 'X-Cache, Age, ETag, Retry-After, X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';

const PATH_PARAMETER = /\{(\w+)\}$/;
const fixedPaths = new Map<string, AnyEndpoint>();
// "/catalog/series/" → the endpoint and its one parameter name: every parametrised path ends in its parameter.
const parametrisedPaths = new Map<string, { endpoint: AnyEndpoint; name: string }>();
for (const endpoint of endpoints) {
  const name = PATH_PARAMETER.exec(endpoint.path)?.[1];
  if (name === undefined) fixedPaths.set(endpoint.path, endpoint);
  else parametrisedPaths.set(endpoint.path.slice(0, -name.length - 2), { endpoint, name });
}

/** The endpoint a request path names, and its path parameters percent-decoded as Express decodes them; undefined when none does or a parameter does not decode. */
export function matchEndpoint(pathname: string): { endpoint: AnyEndpoint; params: Record<string, string> } | undefined {
  const fixed = fixedPaths.get(pathname);
  if (fixed !== undefined) return { endpoint: fixed, params: {} };
  const lastSlash = pathname.lastIndexOf('/');
  const parametrised = parametrisedPaths.get(pathname.slice(0, lastSlash + 1));
  if (parametrised === undefined || lastSlash === pathname.length - 1) return undefined;
  try {
    return { endpoint: parametrised.endpoint, params: { [parametrised.name]: decodeURIComponent(pathname.slice(lastSlash + 1)) } };
  } catch {
    return undefined;
  }
}

/** Express's form of a table path: "/catalog/series/{slug}" → "/catalog/series/:slug". */
const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Headers every /catalog answer carries, errors and the quota's 429 included, as names and values
 * in turn (`writeHead`'s raw form). The API only ever answers JSON, so of helmet's document
 * headers (CSP, framing…) only nosniff applies here.
 */
export const CATALOG_HEADERS: readonly string[] = [
  'Access-Control-Allow-Origin', '*',
  'Access-Control-Expose-Headers', EXPOSED_HEADERS,
  'X-Content-Type-Options', 'nosniff',
];

export function setCatalogHeaders(res: ServerResponse): void {
  setHeaders(res, CATALOG_HEADERS);
}

/** Sets headers given as names and values in turn. */
export function setHeaders(res: ServerResponse, headers: readonly string[]): void {
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
}

/**
 * Mounts every entry of the endpoint table: validate → service → bytes with cache headers.
 * Cached answers usually leave earlier, from the hit path in front of Express (http/hitPath.ts);
 * this route answers the misses, and a hit that raced past it.
 */
export function createCatalogRouter(service: CatalogService, quota: RequestHandler, now: () => number): Router {
  const router = Router();
  router.use('/catalog', (_req, res, next) => {
    setCatalogHeaders(res);
    next();
  });
  router.use('/catalog', quota);
  for (const endpoint of endpoints) {
    const path = expressPath(endpoint.path);
    router.get(path, async (req, res) => {
      // The log line and the metrics name the endpoint by its table path, as the cached-hit path does.
      res.locals.route = endpoint.path;
      // Path parameters last, so that a query parameter of the same name cannot stand in for one.
      const input = validateQuery(endpoint.input, { ...req.query, ...req.params }) as Record<string, unknown>;
      const result = service.cached(endpoint, input) ?? (await service.fetch(endpoint, input));
      if (result.cacheStatus === 'MISS') res.locals.upstream = result.answer.upstream;
      sendCatalogAnswer(req, res, result, now());
    });
    router.all(path, (req, res) => {
      res.locals.route = endpoint.path;
      throw new MethodNotAllowedError(req.method, endpoint.path, ALLOWED_METHODS);
    });
  }
  return router;
}

/**
 * Writes a catalog answer: its precomputed bytes and ETag, Age and max-age from the clock; 304 when
 * If-None-Match matches. `headers` (names and values in turn) go out with it. The head is written
 * in one `writeHead` call: on the hit path, which sets no header before, Node then formats the
 * array as it is, without building and validating a header map one `setHeader` at a time.
 */
export function sendCatalogAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  { answer, cacheStatus }: CatalogResult,
  now: number,
  headers: readonly string[] = [],
): void {
  const ageSeconds = Math.max(0, Math.floor((now - answer.fetchedAt) / 1000));
  const head = [
    ...headers,
    'X-Cache', cacheStatus,
    'Age', String(ageSeconds),
    'Cache-Control', `public, max-age=${Math.max(0, answer.ttlSeconds - ageSeconds)}`,
    'ETag', answer.etag,
  ];
  // The conditional-GET check Express's req.fresh uses, called directly so both paths share it.
  if (fresh(req.headers, { etag: answer.etag })) {
    res.writeHead(304, head);
    res.end();
    return;
  }
  head.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(answer.body.length));
  res.writeHead(200, head);
  res.end(answer.body);
}

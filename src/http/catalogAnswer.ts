import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import type { CatalogResult } from '../catalog/service.js';

// Browsers hide response headers from cross-origin scripts unless they are listed here.
const EXPOSED_HEADERS = 'X-Cache, Age, ETag, Retry-After, X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';

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

/** Sets headers given as names and values in turn. */
export function setHeaders(res: ServerResponse, headers: readonly string[]): void {
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
}

/** X-Cache, Age and max-age of an answer of the catalog's cache (a catalog answer, or a feed built from one). */
export function cacheHeaders({ answer, cacheStatus }: CatalogResult, now: number): string[] {
  const ageSeconds = Math.max(0, Math.floor((now - answer.fetchedAt) / 1000));
  return ['X-Cache', cacheStatus, 'Age', String(ageSeconds), 'Cache-Control', `public, max-age=${Math.max(0, answer.ttlSeconds - ageSeconds)}`];
}

/**
 * Writes a catalog answer: its precomputed bytes and ETag, Age and max-age from the clock; 304 when
 * If-None-Match matches. `headers` (names and values in turn) go out with it. Correctness needs
 * only the values; that the head goes out in one `writeHead` of a flat array is for speed (Node
 * then formats it as it is, without a header map built one `setHeader` at a time).
 */
export function sendCatalogAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  { answer, cacheStatus }: CatalogResult,
  now: number,
  headers: readonly string[] = [],
): void {
  const head = [...headers, ...cacheHeaders({ answer, cacheStatus }, now), 'ETag', answer.etag];
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

import type { IncomingMessage, ServerResponse } from 'node:http';
import fresh from 'fresh';
import type { CatalogAnswer } from '../catalog/answer.js';
import type { CatalogResult } from '../catalog/answerLifecycle.js';

// Browsers hide response headers from cross-origin scripts unless they are listed here.
const EXPOSED_HEADERS = 'X-Cache, Age, ETag, Retry-After, X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';

/**
 * Headers every API answer carries, errors and the quota's 429 included, as names and values in
 * turn (`writeHead`'s raw form). The API only ever answers JSON and feeds, so of helmet's document
 * headers (CSP, framing…) only nosniff applies here.
 */
export const API_HEADERS: readonly string[] = [
  'Access-Control-Allow-Origin',
  '*',
  'Access-Control-Expose-Headers',
  EXPOSED_HEADERS,
  'X-Content-Type-Options',
  'nosniff',
];

/** One answer of an API resource, ready to send: what the door writes for a hit and a miss alike. */
export interface Representation {
  body: Buffer;
  contentType: string;
  etag: string;
  /** An HTTP date, for If-Modified-Since; only where the resource has a date of its own (a feed). */
  lastModified?: string;
  /** Its own headers, names and values in turn: X-Cache, Age and Cache-Control (cacheHeaders), Vary… */
  headers: readonly string[];
  /** The X-Cache value, for the log line. */
  cacheStatus: string;
  /** What the upstream did, on a miss, for the log line. */
  upstream?: unknown;
}

/** The Age of an answer of the catalog's cache at `now`: whole seconds since it was fetched. */
export const ageSecondsOf = (answer: CatalogAnswer, now: number): number => Math.max(0, Math.floor((now - answer.fetchedAt) / 1000));

/** X-Cache, Age and max-age of an answer of the catalog's cache (a catalog answer, or a feed built from one), `ageSeconds` old. */
export function cacheHeaders({ answer, cacheStatus }: CatalogResult, ageSeconds: number): string[] {
  return [
    'X-Cache',
    cacheStatus,
    'Age',
    String(ageSeconds),
    'Cache-Control',
    `public, max-age=${Math.max(0, answer.ttlSeconds - ageSeconds)}`,
  ];
}

/** Whether the request's validators (If-None-Match, If-Modified-Since) match: Express's req.fresh test. */
export function isFresh(req: IncomingMessage, representation: Representation): boolean {
  return fresh(req.headers, { etag: representation.etag, 'last-modified': representation.lastModified });
}

/** Whether the request carries a validator at all. */
export const isConditional = (req: IncomingMessage) =>
  req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;

/**
 * Writes a representation after `head` (names and values in turn): 304 when the request's
 * validators match, else the bytes. That the head goes out in one `writeHead` of a flat array is
 * for speed only (Node then formats it as it is, without a header map built one `setHeader` at a time).
 */
export function writeRepresentation(req: IncomingMessage, res: ServerResponse, representation: Representation, head: string[]): void {
  head.push(...representation.headers, 'ETag', representation.etag);
  if (representation.lastModified !== undefined) head.push('Last-Modified', representation.lastModified);
  if (isConditional(req) && isFresh(req, representation)) {
    res.writeHead(304, head);
    res.end();
    return;
  }
  head.push('Content-Type', representation.contentType, 'Content-Length', String(representation.body.length));
  res.writeHead(200, head);
  res.end(representation.body);
}

import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit, type ClientRateLimitInfo } from 'express-rate-limit';
import type { Config } from '../../config/schema.js';
import type { QuotaStore } from './quotaStore.js';
import { RateLimitedError } from '../errors.js';

/** The caller's address as Express's `req.ip` computes it, from the socket and trusted proxies only. */
export type ClientAddress = (req: IncomingMessage) => string;

/** One request counted against the quota: its X-RateLimit-* headers, and the refusal when it is over the limit. */
interface QuotaCount {
  /** Header names and values in turn, as `writeHead` takes them. */
  headers: string[];
  refused?: RateLimitedError;
}

/**
 * The API's quota as the door calls it: the store, key and headers of express-rate-limit, without
 * its middleware's Express request and its five awaits.
 */
export interface Quota {
  /** Counts the request: one increment of the caller's window. */
  count(req: IncomingMessage): Promise<QuotaCount>;
  /** The X-RateLimit-* headers of the caller's window as it stands, without counting this request. */
  peek(req: IncomingMessage): Promise<string[]>;
}

// The library's recommended IPv6 grouping, so that one host cannot rotate addresses for fresh quotas.
const IPV6_SUBNET = 56;

interface QuotaOptions {
  limit: number;
  windowMs: number;
  /** What the quota covers, for the 429 message ("API requests", "reports"). */
  subject: string;
  clientAddress: ClientAddress;
  /** Where the counts live: memory, or with REDIS_URL Redis (src/stores/index.ts picks it). */
  store: QuotaStore;
}

/**
 * A fixed-window per-client quota (express-rate-limit): its middleware, and the same store, key and
 * headers as `count` and `peek`. The key is the client address behind trusted proxies only, so a
 * forged X-Forwarded-For counts for nothing; it is computed here rather than read from `req.ip` so
 * that the door, in front of Express, keys a request as the middleware would.
 */
function perClientQuota({ limit, windowMs, subject, clientAddress, store }: QuotaOptions): Quota & { middleware: RequestHandler } {
  const keyOf = (req: IncomingMessage) => {
    const address = clientAddress(req);
    // Only an IPv6 address (it has a colon) needs ipKeyGenerator's subnet grouping; sparing the
    // others its IPv6 test is for speed only, as it returns them unchanged.
    return address.includes(':') ? ipKeyGenerator(address, IPV6_SUBNET) : address;
  };
  // Built for the API quota too, which never mounts it: express-rate-limit validates the options and
  // initialises the store with the window here.
  const middleware = rateLimit({
    store,
    windowMs,
    limit,
    legacyHeaders: true,
    // The contract names X-RateLimit-*; the IETF RateLimit headers would say the same again, at a cost per request.
    standardHeaders: false,
    keyGenerator: keyOf,
    // Never 0: a client told to wait 0 seconds would retry at once into the same window.
    retryAfter: (req) => secondsUntil(resetTimeOf(req)),
    handler: (req, _res, next) => {
      next(new RateLimitedError(limit, subject, secondsUntil(resetTimeOf(req))));
    },
  });
  // express-rate-limit's legacy headers, computed as it computes them.
  const limitText = String(limit);
  const headersOf = (totalHits: number, resetTime: Date | undefined): string[] => {
    const remaining = String(Math.max(limit - totalHits, 0));
    return resetTime === undefined
      ? ['X-RateLimit-Limit', limitText, 'X-RateLimit-Remaining', remaining]
      : [
          'X-RateLimit-Limit',
          limitText,
          'X-RateLimit-Remaining',
          remaining,
          'X-RateLimit-Reset',
          String(Math.ceil(resetTime.getTime() / 1000)),
        ];
  };
  const counted = ({ totalHits, resetTime }: ClientRateLimitInfo): QuotaCount => {
    const headers = headersOf(totalHits, resetTime);
    return totalHits > limit ? { headers, refused: new RateLimitedError(limit, subject, secondsUntil(resetTime)) } : { headers };
  };
  // The store's promise and one more, and no function suspended per request (for speed only).
  const count = (req: IncomingMessage): Promise<QuotaCount> => Promise.resolve(store.increment(keyOf(req))).then(counted);
  const peek = async (req: IncomingMessage): Promise<string[]> => {
    const info = await store.get?.(keyOf(req));
    return headersOf(info?.totalHits ?? 0, info?.resetTime);
  };
  return { middleware, count, peek };
}

function resetTimeOf(req: unknown): Date | undefined {
  return (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
}

function secondsUntil(resetTime: Date | undefined): number {
  return resetTime === undefined ? 1 : Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000));
}

/** The API quota, counted by the door: RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_S per client. */
export function apiQuota(config: Config, clientAddress: ClientAddress, store: QuotaStore): Quota {
  return perClientQuota({
    limit: config.RATE_LIMIT_MAX,
    windowMs: config.RATE_LIMIT_WINDOW_S * 1000,
    subject: 'API requests',
    clientAddress,
    store,
  });
}

/** Report submissions have their own, stricter quota, apart from the API's: middleware on the report routes. */
export function reportRateLimit(config: Config, clientAddress: ClientAddress, store: QuotaStore): RequestHandler {
  const limit = config.REPORT_RATE_LIMIT_MAX;
  return perClientQuota({ limit, windowMs: config.RATE_LIMIT_WINDOW_S * 1000, subject: 'reports', clientAddress, store }).middleware;
}

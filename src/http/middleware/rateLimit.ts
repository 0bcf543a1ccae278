import type { Request, RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Config } from '../../config/schema.js';
import { RateLimitedError } from '../errors.js';

interface QuotaOptions {
  limit: number;
  windowMs: number;
  /** What the quota covers, for the 429 message ("API requests", "reports"). */
  subject: string;
}

/**
 * A fixed-window per-client quota (express-rate-limit's memory store: exact under concurrency,
 * and it drops windows that have ended). The client is `req.ip`, which follows Express's
 * `trust proxy` setting, so X-Forwarded-For counts only behind a trusted proxy. IPv6 clients are
 * grouped by the library's recommended /56 so that one host cannot rotate addresses.
 */
function perClientQuota({ limit, windowMs, subject }: QuotaOptions): RequestHandler {
  return rateLimit({
    windowMs,
    limit,
    legacyHeaders: true,
    standardHeaders: 'draft-8',
    // A public API sees X-Forwarded-For from anyone; without TRUST_PROXY it is ignored on purpose.
    validate: { xForwardedForHeader: false },
    // Never 0: a client told to wait 0 seconds would retry at once into the same window.
    retryAfter: (req: Request) => secondsUntil((req as RateLimitedRequest).rateLimit.resetTime),
    handler: (req, _res, next) => {
      next(new RateLimitedError(limit, subject, secondsUntil((req as RateLimitedRequest).rateLimit.resetTime)));
    },
  });
}

type RateLimitedRequest = Request & { rateLimit: { resetTime?: Date } };

function secondsUntil(resetTime: Date | undefined): number {
  return resetTime === undefined ? 1 : Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000));
}

/** The API quota on /catalog/*: RATE_LIMIT_MAX requests per RATE_LIMIT_WINDOW_MS per client. */
export function catalogRateLimit(config: Config): RequestHandler {
  return perClientQuota({ limit: config.RATE_LIMIT_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS, subject: 'API requests' });
}

/** Report submissions have their own, stricter quota, apart from the API's. */
export function reportRateLimit(config: Config): RequestHandler {
  return perClientQuota({ limit: config.REPORT_RATE_LIMIT_MAX, windowMs: config.RATE_LIMIT_WINDOW_MS, subject: 'reports' });
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from '../../config/logger.js';

export interface RequestLogFields {
  requestId: string;
  route: string;
  upstream?: unknown;
  errorCode?: string;
}

/** Writes the request's one log line when its response is finished: route, status, duration, cache and upstream outcome. */
export function logWhenFinished(logger: Logger, req: IncomingMessage, res: ServerResponse, fields: () => RequestLogFields): void {
  const started = performance.now();
  res.once('finish', () => {
    logger.info(
      {
        ...fields(),
        method: req.method,
        // Express rewrites req.url inside mounted routers; originalUrl keeps what the client asked.
        url: (req as { originalUrl?: string }).originalUrl ?? req.url,
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        cache: res.getHeader('x-cache'),
      },
      'request',
    );
  });
}

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    logWhenFinished(logger, req, res, () => ({
      requestId: res.locals.requestId,
      route: req.route?.path ?? req.path,
      upstream: res.locals.upstream,
      errorCode: res.locals.errorCode,
    }));
    next();
  };
}

import type { RequestHandler } from 'express';
import type { Logger } from '../../config/logger.js';

/** One log line per request: route, status, duration and what the upstream did. */
export const requestLog: RequestHandler = (req, res, next) => {
  const started = performance.now();
  res.on('finish', () => {
    const log: Logger = res.locals.log;
    log.info(
      {
        method: req.method,
        route: req.route?.path ?? req.path,
        url: req.originalUrl,
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        upstream: res.locals.upstream,
        errorCode: res.locals.errorCode,
      },
      'request',
    );
  });
  next();
};

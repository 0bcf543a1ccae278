import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../config/logger.js';
import { ENDPOINT_PATHS } from '../catalog/endpoints.js';
import { describeError, RouteNotFoundError } from './errors.js';

/** The last plain middleware: whatever reached it matched no route. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new RouteNotFoundError(req.method, req.path));
};

/**
 * The single place an error becomes a response: the contract's envelope, a fresh body per request,
 * never a stack trace or upstream HTML. Express knows it is an error handler by its four arguments.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const described = describeError(error);
    const log = res.locals.log ?? logger;
    if (described.status >= 500) log.error({ err: error, code: described.code }, 'request failed');
    res.locals.errorCode = described.code;

    const endpoint = ENDPOINT_PATHS.includes(req.path) ? req.path : 'other';
    const reportUrl = `/report?${new URLSearchParams({ endpoint, category: described.reportCategory })}`;
    res
      .status(described.status)
      .set(described.headers)
      .set('Cache-Control', 'no-store')
      .json({
        status: 'error',
        error: { code: described.code, message: described.message, details: described.details },
        requestId: res.locals.requestId,
        reportUrl,
      });
  };
}

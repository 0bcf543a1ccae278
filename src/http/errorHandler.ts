import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../config/logger.js';
import { REPORT_CENTER_PATHS } from '../catalog/endpoints/index.js';
import { errorPageView, wantsErrorPage } from '../pages/errorPageView.js';
import { builtOncePerKey, MarkedText, renderView } from './builtPages.js';
import { describeError, type DescribedError } from './errorTable.js';
import { RouteNotFoundError } from './errors.js';
import { closeIfBodyUnread } from './middleware/body.js';

/** An error as it is answered: its status, its head (names and values in turn) and its JSON envelope. */
export interface ErrorResponse {
  status: number;
  /** The error's own headers (Retry-After, Allow…), no-store, and the envelope's type and length. */
  headers: string[];
  body: string;
  described: DescribedError;
  /** The Report Center link the envelope carries, for the error page too. */
  reportUrl: string;
}

/**
 * The one builder of an error answer, for the door, the Express error handler and the server's
 * raw-socket writer alike: the contract's envelope for `error` on `path`, from the one error table.
 * Failures of ours (5xx) are logged here at error level; a client's malformed request (or its
 * disconnect) only at info, so it never pages anyone.
 */
export function errorResponse(error: unknown, path: string, requestId: string, logger: Logger): ErrorResponse {
  const described = describeError(error);
  if (described.status >= 500) logger.error({ err: error, code: described.code, requestId }, 'request failed');
  else if (described.reason !== undefined) logger.info({ code: described.code, reason: described.reason, requestId }, 'client error');
  const endpoint = REPORT_CENTER_PATHS.includes(path) ? path : 'other';
  const reportUrl = `/report?${new URLSearchParams({ endpoint, category: described.reportCategory }).toString()}`;
  const body = JSON.stringify({
    status: 'error',
    error: { code: described.code, message: described.message, details: described.details },
    requestId,
    reportUrl,
  });
  const headers = [...Object.entries(described.headers).flat(), 'Cache-Control', 'no-store'];
  headers.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(body)));
  return { status: described.status, headers, body, described, reportUrl };
}

/** Writes an error answer, after `head` (names and values in turn: the API's headers, the request id, the quota's). */
export function writeErrorResponse(res: ServerResponse, { status, headers, body }: ErrorResponse, head: readonly string[] = []): void {
  res.writeHead(status, [...head, ...headers]);
  res.end(body);
}

/** The last plain middleware: whatever reached it matched no route. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new RouteNotFoundError(req.method, req.path));
};

// Stands for the request id in an error page built once per code: no escaping changes it, nor an
// id requestId.ts lets through (letters, digits, `._:-`, or a UUID).
const REQUEST_ID_MARK = 'request-id.invalid';

/**
 * Express's error handler: the contract's envelope (or, for a browser asking for a page, an error
 * page), a fresh body per request, never a stack trace or upstream HTML. Express knows it is an
 * error handler by its four arguments. An error page is built once per status, code and report
 * link (builtPages.ts); only the request id goes in per answer, so that a flood of error pages
 * costs no render.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  const pages = builtOncePerKey<MarkedText>();
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    closeIfBodyUnread(req, res);
    const response = errorResponse(error, req.path, res.locals.requestId, logger);
    const { described, reportUrl } = response;
    res.locals.errorCode = described.code;
    if (!wantsErrorPage(req)) return writeErrorResponse(res, response);
    const view = errorPageView(described.status, described.code, REQUEST_ID_MARK, reportUrl);
    pages(
      `${described.status} ${described.code} ${reportUrl}`,
      async () => new MarkedText(await renderView(req.app, 'error', view), REQUEST_ID_MARK),
    ).then(
      (page) =>
        res
          .status(described.status)
          .set(described.headers)
          .set('Cache-Control', 'no-store')
          .type('html')
          .send(page.with(res.locals.requestId)),
      // A template failure cannot fall through to Express's default handler and its stack trace.
      (renderError: unknown) => {
        logger.error({ err: renderError, requestId: res.locals.requestId }, 'error page failed to render');
        writeErrorResponse(res, response);
      },
    );
  };
}

import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../config/logger.js';
import { REPORT_CENTER_PATHS } from '../catalog/endpoints/index.js';
import { errorPageView, wantsErrorPage } from '../pages/errorPageView.js';
import { builtOncePerKey, MarkedText, renderView } from './builtPages.js';
import { describeError, type DescribedError } from './errorTable.js';
import { RouteNotFoundError } from './errors.js';
import { closeIfBodyUnread } from './middleware/body.js';

/**
 * The contract's error envelope for `error` on `path`. Failures of ours (5xx) are logged here at
 * error level; a client's malformed request (or its disconnect) only at info, so it never pages anyone.
 */
export function errorAnswer(error: unknown, path: string, requestId: string, logger: Logger) {
  const described = describeError(error);
  if (described.status >= 500) logger.error({ err: error, code: described.code, requestId }, 'request failed');
  else if (described.reason !== undefined) logger.info({ code: described.code, reason: described.reason, requestId }, 'client error');
  const endpoint = REPORT_CENTER_PATHS.includes(path) ? path : 'other';
  const reportUrl = `/report?${new URLSearchParams({ endpoint, category: described.reportCategory })}`;
  const envelope = {
    status: 'error',
    error: { code: described.code, message: described.message, details: described.details },
    requestId,
    reportUrl,
  };
  return { described, envelope, reportUrl };
}

/** Status, headers and no-store of an error answer; plain node API, so the cached-hit path shares it. */
function writeErrorHead(res: ServerResponse, described: DescribedError): void {
  res.statusCode = described.status;
  for (const [name, value] of Object.entries(described.headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
}

/** Answers the contract's JSON error envelope. */
export function sendErrorEnvelope(res: ServerResponse, described: DescribedError, envelope: object): void {
  writeErrorHead(res, described);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(envelope));
}

/** The last plain middleware: whatever reached it matched no route. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new RouteNotFoundError(req.method, req.path));
};

// Stands for the request id in an error page built once per code: no escaping changes it, nor an
// id requestId.ts lets through (letters, digits, `._:-`, or a UUID).
const REQUEST_ID_MARK = 'request-id.invalid';

/**
 * The single place an error becomes a response: the contract's envelope (or, for a browser asking
 * for a page, an error page), a fresh body per request, never a stack trace or upstream HTML. Express knows it is an error handler by its four arguments.
 * An error page is built once per status, code and report link (builtPages.ts); only the request
 * id goes in per answer, so that a flood of error pages costs no render.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  const pages = builtOncePerKey<MarkedText>();
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    closeIfBodyUnread(req, res);
    const { described, envelope, reportUrl } = errorAnswer(error, req.path, res.locals.requestId, logger);
    res.locals.errorCode = described.code;
    if (!wantsErrorPage(req)) return sendErrorEnvelope(res, described, envelope);
    writeErrorHead(res, described);
    const view = errorPageView(described.status, described.code, REQUEST_ID_MARK, reportUrl);
    pages(`${described.status} ${described.code} ${reportUrl}`, async () => new MarkedText(await renderView(req.app, 'error', view), REQUEST_ID_MARK)).then(
      (page) => res.type('html').send(page.with(res.locals.requestId as string)),
      // A template failure cannot fall through to Express's default handler and its stack trace.
      (renderError: unknown) => {
        logger.error({ err: renderError, requestId: res.locals.requestId }, 'error page failed to render');
        sendErrorEnvelope(res, described, envelope);
      },
    );
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from '../../config/logger.js';
import { routePattern } from './requestMetrics.js';

export interface RequestLogFields {
  requestId: string;
  route: string;
  upstream?: unknown;
  errorCode?: string;
  /** The answer's X-Cache (HIT, STALE, MISS), when it has one. */
  cache?: ReturnType<ServerResponse['getHeader']>;
}

/** The request's log line, as the "finished" hook (the status page's traffic counts) also gets it. */
export interface RequestLogLine extends RequestLogFields {
  method: string | undefined;
  url: string;
  status: number;
  durationMs: number;
}

// What of a request's URL its line keeps: a real client's fits; a script's junk query of many
// kilobytes would make each line as long and the log as big, for a request that may cost nothing else.
const LOGGED_URL_MAX = 2048;

const loggedUrl = (url: string) => (url.length > LOGGED_URL_MAX ? `${url.slice(0, LOGGED_URL_MAX)}… (${url.length} characters)` : url);

/** Told of every finished request, with its log line, when the line is written (at the end of the turn); it must be cheap. */
export type RequestFinishedHook = (line: RequestLogLine) => void;

/**
 * Writes the request's one log line at the end of this turn of the event loop: route, status,
 * duration since `startedMs` (performance.now()), cache and upstream outcome; tells `onFinished`
 * of it right after the line is written.
 */
export function logRequest(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  { requestId, route, upstream, errorCode, cache }: RequestLogFields,
  startedMs: number,
  onFinished?: RequestFinishedHook,
): void {
  // Spelled out rather than spread from the fields, for speed only: the line is the same.
  const line: RequestLogLine = {
    requestId,
    route,
    upstream,
    errorCode,
    cache,
    method: req.method,
    // Express rewrites req.url inside mounted routers; originalUrl keeps what the client asked.
    url: loggedUrl((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/'),
    status: res.statusCode,
    durationMs: Math.round((performance.now() - startedMs) * 10) / 10,
  };
  writeAtEndOfTurn(logger, line, onFinished);
}

// The lines of the requests answered in this turn of the event loop, written one after another at its
// end (setImmediate), each with its finished hook (the metrics, the status page's counts): in a row,
// the logger's and the counters' code and data stay in the CPU's caches, where a line written between
// two answers finds them evicted by the answer's own work. A client reading its answer does so in a
// later turn, after its line is written and counted; an exit in this turn writes them first.
const waitingLines: Array<{ logger: Logger; line: RequestLogLine; onFinished: RequestFinishedHook | undefined }> = [];

function writeWaitingLines(): void {
  for (const { logger, line, onFinished } of waitingLines) {
    logger.info(line, 'request');
    onFinished?.(line);
  }
  waitingLines.length = 0;
}

let exitHooked = false;

function writeAtEndOfTurn(logger: Logger, line: RequestLogLine, onFinished: RequestFinishedHook | undefined): void {
  if (waitingLines.push({ logger, line, onFinished }) === 1) setImmediate(writeWaitingLines);
  if (!exitHooked) {
    exitHooked = true;
    // Before the logger's own exit hook (logBatch.ts), which hands over what it holds.
    process.prependOnceListener('exit', writeWaitingLines);
  }
}

/** Writes the request's one log line when its response is finished. */
function logWhenFinished(
  logger: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  fields: () => RequestLogFields,
  onFinished?: RequestFinishedHook,
): void {
  const started = performance.now();
  res.once('finish', () => logRequest(logger, req, res, fields(), started, onFinished));
}

export function requestLog(logger: Logger, onFinished?: RequestFinishedHook): RequestHandler {
  return (req, res, next) => {
    logWhenFinished(
      logger,
      req,
      res,
      () => ({
        requestId: res.locals.requestId,
        route: routePattern(req) ?? req.path,
        errorCode: res.locals.errorCode,
        cache: res.getHeader('x-cache'),
      }),
      onFinished,
    );
    next();
  };
}

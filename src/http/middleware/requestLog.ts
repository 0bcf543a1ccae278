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

/** Told of every finished request, with its log line; runs on the hot path, so it must be cheap. */
export type RequestFinishedHook = (line: RequestLogLine) => void;

/**
 * Writes the request's one log line: route, status, duration since `startedMs` (performance.now()),
 * cache and upstream outcome; then tells `onFinished`.
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
    url: (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/',
    status: res.statusCode,
    durationMs: Math.round((performance.now() - startedMs) * 10) / 10,
  };
  logger.info(line, 'request');
  onFinished?.(line);
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

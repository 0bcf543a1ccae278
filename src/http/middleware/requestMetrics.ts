import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { Metrics } from '../../metrics.js';

/** Times one finished answer by route pattern, method and status (http_requests_total counts from it, metrics.ts). */
export function observeAnswer(metrics: Metrics, route: string, method: string, status: number, durationMs: number): void {
  // prom-client's timer would copy the labels and read the clock again.
  metrics.httpRequestDuration.observe({ route, method, status: String(status) }, durationMs / 1000);
}

/** Counts and times one answer by route pattern, method and status once it is finished. */
function observeWhenFinished(metrics: Metrics, req: IncomingMessage, res: ServerResponse, route: () => string): void {
  const started = performance.now();
  res.once('finish', () => observeAnswer(metrics, route(), req.method ?? 'GET', res.statusCode, performance.now() - started));
}

/**
 * Counts and times every answer by route pattern, method and status. Unmatched paths share one
 * label, so that scanners probing random URLs cannot blow up the number of series.
 */
export function requestMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    observeWhenFinished(metrics, req, res, () => routeLabel(req, res));
    next();
  };
}

function routeLabel(req: Request, res: Response): string {
  const pattern = routePattern(req);
  if (pattern !== undefined) return `${req.baseUrl}${pattern}`;
  return res.statusCode === 404 ? 'unmatched' : 'other';
}

/** The path pattern of the Express route that answered (Express types `req.route` as any). */
export function routePattern(req: Request): string | undefined {
  const pattern: unknown = (req.route as { path?: unknown } | undefined)?.path;
  return typeof pattern === 'string' ? pattern : undefined;
}

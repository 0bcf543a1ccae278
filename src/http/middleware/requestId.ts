import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

// An incoming id is reused only when it is short and plain, so a caller cannot inject log noise.
const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The request's id: a sane incoming X-Request-Id, or a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
}

/** The request's id, echoed in the response header. */
function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req);
  res.setHeader('X-Request-Id', id);
  return id;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own way to type res.locals is to augment this global namespace
  namespace Express {
    interface Locals {
      /** Set by requestId(), ahead of every Express route. */
      requestId: string;
      /** Set by the error handler, for the request's log line. */
      errorCode?: string;
    }
  }
}

export const requestId: RequestHandler = (req, res, next) => {
  res.locals.requestId = assignRequestId(req, res);
  next();
};

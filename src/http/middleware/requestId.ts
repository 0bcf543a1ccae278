import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../../config/logger.js';

// An incoming id is reused only when it is short and plain, so a caller cannot inject log noise.
const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Gives every request an id (X-Request-Id in and out) and a child logger that carries it. */
export function requestId(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && SANE_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.locals.log = logger.child({ requestId: id });
    res.setHeader('X-Request-Id', id);
    next();
  };
}

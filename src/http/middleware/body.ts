import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';
import { BODY_LIMIT_BYTES } from '../../config/requestLimits.js';
import { InvalidBodyError, PayloadTooLargeError } from '../errors.js';

/** A report form has six fields; this leaves room without parsing an unbounded number. */
const FORM_FIELDS_MAX = 20;

// body-parser's own errors carry a `type`; they become our typed errors here, at the edge. Its
// other errors (an unsupported Content-Encoding or charset: 415; a client that went away) keep
// their http-errors status, which describeError maps.
function typedBodyError(error: { type?: string; status?: number }): unknown {
  if (error.type === 'entity.too.large') return new PayloadTooLargeError(BODY_LIMIT_BYTES);
  if (error.type === 'parameters.too.many')
    return new InvalidBodyError([
      { field: 'body', rule: `at most ${FORM_FIELDS_MAX} fields`, message: 'The form has more fields than a report' },
    ]);
  if (error.type === 'entity.parse.failed')
    return new InvalidBodyError([{ field: 'body', rule: 'JSON', message: 'The body is not valid JSON' }]);
  // A zlib error, typeless: a corrupt or truncated gzip, deflate or br body.
  if (error.type === undefined && error.status === 400)
    return new InvalidBodyError([
      { field: 'body', rule: 'complete gzip, deflate or br data', message: 'The compressed body is corrupt or cut short' },
    ]);
  return error;
}

/** Whether the request declares a body (RFC 9112: Transfer-Encoding, or a Content-Length over 0) that has not all arrived. */
const bodyStillComing = (req: IncomingMessage): boolean =>
  !req.complete && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0);

/**
 * An answer given while the request's body is still unread closes the connection, so that the
 * rest of the body is never read: Node would otherwise read it to the end to reuse the connection,
 * and even with `Connection: close` it reads on until its last bytes are out and the client hangs up.
 * The socket is destroyed as soon as the answer is handed to the network.
 */
export function closeIfBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent || !bodyStillComing(req)) return;
  res.setHeader('Connection', 'close');
  res.once('finish', () => req.socket.destroy());
}

/**
 * The body limit on the bytes as they arrive, declared or chunked: a declared Content-Length over
 * it is refused at once, and a body counted past it is refused as soon as it passes, with the rest
 * left unread. body-parser's own limit is not enough: past it, it reads the whole body before it
 * answers (to keep the connection), which a client may send for ever.
 */
function bounded(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (Number(req.headers['content-length']) > BODY_LIMIT_BYTES) return next(new PayloadTooLargeError(BODY_LIMIT_BYTES));
    let received = 0;
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      req.off('data', count);
      next(error);
    };
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= BODY_LIMIT_BYTES) return;
      req.pause();
      settle(new PayloadTooLargeError(BODY_LIMIT_BYTES));
    };
    // Added before the parser's own listener, in the same tick, so it sees every chunk first.
    req.on('data', count);
    parser(req, res, (error?: unknown) =>
      settle(error === undefined ? undefined : typedBodyError(error as { type?: string; status?: number })),
    );
  };
}

/** `application/json` bodies; with another content type the body stays empty and is refused as such. */
export const jsonBody = bounded(express.json({ limit: BODY_LIMIT_BYTES, strict: false }));

/** HTML form posts. Repeated fields arrive as arrays, so they can be refused rather than guessed. */
export const formBody = bounded(express.urlencoded({ extended: false, limit: BODY_LIMIT_BYTES, parameterLimit: FORM_FIELDS_MAX }));

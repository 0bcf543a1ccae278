import express, { type RequestHandler } from 'express';
import { InvalidBodyError, PayloadTooLargeError } from '../errors.js';

/**
 * The largest body we read. A report is at most 1,100 characters; even as 4-byte emoji,
 * percent-encoded in a form (12 bytes each), it stays under this.
 */
export const BODY_LIMIT_BYTES = 32 * 1024;
/** A report form has six fields; this leaves room without parsing an unbounded number. */
const FORM_FIELDS_MAX = 20;

// body-parser's own errors carry a `type`; they become our typed errors here, at the edge. Its
// other errors (an unsupported Content-Encoding or charset: 415; a client that went away) keep
// their http-errors status, which describeError maps.
function typedBodyError(error: { type?: string; status?: number }): unknown {
  if (error.type === 'entity.too.large') return new PayloadTooLargeError(BODY_LIMIT_BYTES);
  if (error.type === 'parameters.too.many')
    return new InvalidBodyError([{ field: 'body', rule: `at most ${FORM_FIELDS_MAX} fields`, message: 'The form has more fields than a report' }]);
  if (error.type === 'entity.parse.failed')
    return new InvalidBodyError([{ field: 'body', rule: 'JSON', message: 'The body is not valid JSON' }]);
  // A zlib error, typeless: a corrupt or truncated gzip, deflate or br body.
  if (error.type === undefined && error.status === 400)
    return new InvalidBodyError([
      { field: 'body', rule: 'complete gzip, deflate or br data', message: 'The compressed body is corrupt or cut short' },
    ]);
  return error;
}

/**
 * A body declared (Content-Length) over the limit is refused at once: body-parser would first wait
 * for the whole declared body to arrive, which a client may never send. The connection closes after
 * the answer, so the unread body is never waited for either.
 */
function withTypedErrors(parser: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (Number(req.headers['content-length']) > BODY_LIMIT_BYTES) {
      res.setHeader('Connection', 'close');
      return next(new PayloadTooLargeError(BODY_LIMIT_BYTES));
    }
    return parser(req, res, (error?: unknown) => next(error === undefined ? undefined : typedBodyError(error as { type?: string; status?: number })));
  };
}

/** `application/json` bodies; with another content type the body stays empty and is refused as such. */
export const jsonBody = withTypedErrors(express.json({ limit: BODY_LIMIT_BYTES, strict: false }));

/** HTML form posts. Repeated fields arrive as arrays, so they can be refused rather than guessed. */
export const formBody = withTypedErrors(express.urlencoded({ extended: false, limit: BODY_LIMIT_BYTES, parameterLimit: FORM_FIELDS_MAX }));

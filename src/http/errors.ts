import type { ErrorDetail } from '../contract/schemas.js';

// The errors of our own HTTP layer. What each one answers (status, code, message) is in the error
// table (errorTable.ts), beside the upstream's and the parsers' errors.

/** A query parameter broke its rule; `details` names each field. */
export class InvalidParameterError extends Error {
  override readonly name = 'InvalidParameterError';
  constructor(readonly details: ErrorDetail[]) {
    super(`Invalid query parameter${details.length > 1 ? 's' : ''}: ${[...new Set(details.map((d) => d.field))].join(', ')}`);
  }
}

/** A path segment whose percent-encoding does not decode as UTF-8. */
export class MalformedPathError extends Error {
  override readonly name = 'MalformedPathError';
}

export class RouteNotFoundError extends Error {
  override readonly name = 'RouteNotFoundError';
  constructor(method: string, path: string) {
    super(`There is no ${method} ${path}. The endpoints are listed at /.`);
  }
}

export class MethodNotAllowedError extends Error {
  override readonly name = 'MethodNotAllowedError';
  constructor(
    method: string,
    path: string,
    readonly allow: string,
  ) {
    super(`${method} is not allowed on ${path}; use ${allow.replace(', ', ' or ')}.`);
  }
}

/** The caller's quota of the current window is used up. */
export class RateLimitedError extends Error {
  override readonly name = 'RateLimitedError';
  constructor(
    readonly limit: number,
    readonly subject: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`Rate limit of ${limit} ${subject} reached`);
  }
}

/** A request body (a report) is unreadable or breaks a field's rule; `details` names each field. */
export class InvalidBodyError extends Error {
  override readonly name = 'InvalidBodyError';
  constructor(readonly details: ErrorDetail[]) {
    super(`Invalid field${details.length > 1 ? 's' : ''}: ${[...new Set(details.map((d) => d.field))].join(', ')}`);
  }
}

export class PayloadTooLargeError extends Error {
  override readonly name = 'PayloadTooLargeError';
  constructor(readonly limitBytes: number) {
    super(`Request body over ${limitBytes} bytes`);
  }
}

/** A request Node's HTTP parser could not read, or that did not arrive in time; `status` is the 4xx it gets. */
export class MalformedRequestError extends Error {
  override readonly name = 'MalformedRequestError';
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
  }
}

/** A form post sent by another site's page (its Origin or Sec-Fetch-Site says so). */
export class CrossSiteFormError extends Error {
  override readonly name = 'CrossSiteFormError';
}

/** The operator endpoints need `Authorization: Bearer <ADMIN_TOKEN>`. */
export class UnauthorizedError extends Error {
  override readonly name = 'UnauthorizedError';
}

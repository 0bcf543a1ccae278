import type { ErrorCode, ErrorDetail } from '../contract/schemas.js';
import { LayoutChangedError, PagePastEndError } from '../parsers/errors.js';
import type { ReportCategory } from '../reports/schema.js';
import {
  type BlockReason,
  UpstreamBadResponseError,
  UpstreamBlockedError,
  UpstreamMovedError,
  UpstreamNotFoundError,
  UpstreamSuspectPageError,
  UpstreamTimeoutError,
  UpstreamUnavailableError,
} from '../upstream/errors.js';

/** A query parameter broke its rule; `details` names each field. */
export class InvalidParameterError extends Error {
  override readonly name = 'InvalidParameterError';
  constructor(readonly details: ErrorDetail[]) {
    super(`Invalid query parameter${details.length > 1 ? 's' : ''}: ${[...new Set(details.map((d) => d.field))].join(', ')}`);
  }
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

/** The operator endpoints need `Authorization: Bearer <ADMIN_TOKEN>`. */
export class UnauthorizedError extends Error {
  override readonly name = 'UnauthorizedError';
}

export interface DescribedError {
  status: number;
  code: ErrorCode;
  message: string;
  details: ErrorDetail[];
  /** Report Center category the error's reportUrl pre-selects. */
  reportCategory: ReportCategory;
  headers: Record<string, string>;
  /** Why a client's request was refused by the libraries at the edge; logged at info, never as our failure. */
  reason?: string;
}

const internalError = (): DescribedError => ({
  status: 500,
  code: 'INTERNAL_ERROR',
  message: 'Something went wrong on our side. Please report it with the requestId so we can fix it.',
  details: [],
  reportCategory: 'bug',
  headers: {},
});

const BLOCKED_MESSAGES: Record<BlockReason, string> = {
  'no-solver': "The upstream's anti-bot protection stands in the way and this service has no challenge solver configured.",
  'solve-failed': "The upstream's anti-bot challenge could not be solved right now.",
  'solve-pending': "The upstream's anti-bot challenge is still being solved; the next request should get through.",
  refused: "The upstream's anti-bot protection refuses this service right now.",
  firewall: "The upstream's firewall blocks this service.",
  'rate-limited': 'The upstream is rate limiting this service, which pauses its requests as asked.',
};

/** The 4xx status an error of the libraries at the edge (body-parser, send, router: http-errors) carries, if any. */
function clientErrorStatus(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const { status, statusCode } = error as Error & { status?: unknown; statusCode?: unknown };
  const carried = status ?? statusCode;
  return typeof carried === 'number' && carried >= 400 && carried <= 499 ? carried : undefined;
}

const CLIENT_ERRORS: Partial<Record<number, { code: ErrorCode; message: string }>> = {
  404: { code: 'NOT_FOUND', message: 'There is no such path. The endpoints are listed at /.' },
  408: { code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time. Send it again, without pauses.' },
  413: { code: 'PAYLOAD_TOO_LARGE', message: 'The request is larger than this service reads. Shorten it and send it again.' },
  415: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Send the body as UTF-8, uncompressed or with Content-Encoding gzip, deflate or br.',
  },
  416: {
    code: 'RANGE_NOT_SATISFIABLE',
    message: 'The requested byte range lies outside the file. Ask without a Range header for the whole file.',
  },
  431: {
    code: 'REQUEST_HEADERS_TOO_LARGE',
    message: 'The request line and headers are over 16 KB. Shorten the URL or the headers.',
  },
};

/** Any other 4xx the libraries raise (a malformed request) is a 400 naming what was wrong. */
function describeClientError(status: number, error: Error): DescribedError {
  const known = CLIENT_ERRORS[status];
  const base = { reportCategory: 'bug' as const, headers: {}, reason: error.message };
  if (known) return { ...base, status, code: known.code, message: known.message, details: [] };
  // router throws a URIError for a path segment whose percent-encoding does not decode.
  const detail =
    error instanceof URIError
      ? { field: 'path', rule: 'percent-encoded UTF-8', message: 'The path has a "%" that is not followed by valid percent-encoded UTF-8' }
      : { field: 'request', rule: 'well-formed HTTP', message: error.message };
  return { ...base, status: 400, code: 'INVALID_PARAMETER', message: 'The request is malformed. See details.', details: [detail] };
}

/** The one table from error type to HTTP status, contract code and a message a person can act on. */
export function describeError(error: unknown): DescribedError {
  const base = { details: [] as ErrorDetail[], headers: {} as Record<string, string> };
  if (error instanceof InvalidParameterError || error instanceof InvalidBodyError)
    return { ...base, status: 400, code: 'INVALID_PARAMETER', message: `${error.message}. See details.`, details: error.details, reportCategory: 'bug' };
  if (error instanceof PayloadTooLargeError)
    return {
      ...base,
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: `The request body is larger than ${Math.round(error.limitBytes / 1024)} KB. Shorten the text and send it again.`,
      reportCategory: 'bug',
    };
  if (error instanceof UnauthorizedError)
    return {
      ...base,
      status: 401,
      code: 'UNAUTHORIZED',
      message: 'Send the operator token as "Authorization: Bearer <ADMIN_TOKEN>".',
      reportCategory: 'other',
      headers: { 'WWW-Authenticate': 'Bearer realm="admin"' },
    };
  if (error instanceof RouteNotFoundError)
    return { ...base, status: 404, code: 'NOT_FOUND', message: error.message, reportCategory: 'bug' };
  if (error instanceof MethodNotAllowedError)
    return { ...base, status: 405, code: 'METHOD_NOT_ALLOWED', message: error.message, reportCategory: 'bug', headers: { Allow: error.allow } };
  if (error instanceof RateLimitedError)
    return {
      ...base,
      status: 429,
      code: 'RATE_LIMITED',
      message: `You have used all ${error.limit} ${error.subject} of this window. Try again in ${error.retryAfterSeconds} seconds, when it resets.`,
      reportCategory: 'other',
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    };
  if (error instanceof PagePastEndError || error instanceof UpstreamNotFoundError)
    return {
      ...base,
      status: 404,
      code: 'NOT_FOUND',
      message: 'The upstream has no such page: the slug is unknown there, or the page number is past the last one.',
      reportCategory: 'wrong-data',
    };
  if (error instanceof LayoutChangedError)
    return {
      ...base,
      status: 502,
      code: 'UPSTREAM_LAYOUT_CHANGED',
      message: `The upstream ${error.pageKind} page no longer has the layout this API reads. Please report it; a parser update fixes it.`,
      reportCategory: 'wrong-data',
    };
  if (error instanceof UpstreamBlockedError)
    return {
      ...base,
      status: 503,
      code: 'UPSTREAM_BLOCKED',
      message: `${BLOCKED_MESSAGES[error.reason]} Retry after ${error.retryAfterSeconds} seconds.`,
      reportCategory: 'api-down',
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    };
  if (error instanceof UpstreamUnavailableError)
    return {
      ...base,
      status: 503,
      code: 'UPSTREAM_UNAVAILABLE',
      message: `The upstream site keeps failing, so this service is giving it a short pause. Retry after ${error.retryAfterSeconds} seconds.`,
      reportCategory: 'api-down',
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    };
  if (error instanceof UpstreamTimeoutError)
    return {
      ...base,
      status: 504,
      code: 'UPSTREAM_TIMEOUT',
      message: 'The upstream site did not answer in time. Try again in a minute; report it if it keeps happening.',
      reportCategory: 'slow',
    };
  if (error instanceof UpstreamMovedError)
    return {
      ...base,
      status: 502,
      code: 'UPSTREAM_ERROR',
      message: 'The upstream site redirected to another domain; it has probably moved. Please report it so we can follow the move.',
      reportCategory: 'api-down',
    };
  if (error instanceof UpstreamSuspectPageError)
    return {
      ...base,
      status: 502,
      code: 'UPSTREAM_ERROR',
      message: 'The upstream domain answers with a page that is not the catalog (parked or moved?). Please report it so we can follow the move.',
      reportCategory: 'api-down',
    };
  if (error instanceof UpstreamBadResponseError)
    return {
      ...base,
      status: 502,
      code: 'UPSTREAM_ERROR',
      message:
        error.status === null
          ? 'The upstream site could not be reached. Try again later.'
          : `The upstream site answered with an error (HTTP ${error.status}). Try again later.`,
      reportCategory: 'api-down',
    };
  const clientStatus = clientErrorStatus(error);
  if (clientStatus !== undefined) return describeClientError(clientStatus, error as Error);
  return internalError();
}

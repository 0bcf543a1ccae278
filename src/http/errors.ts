import type { ErrorCode, ErrorDetail } from '../catalog/schemas.js';
import { LayoutChangedError, PagePastEndError } from '../parsers/errors.js';
import {
  UpstreamBadResponseError,
  UpstreamBlockedError,
  UpstreamMovedError,
  UpstreamNotFoundError,
  UpstreamTimeoutError,
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

export type ReportCategory = 'bug' | 'api-down' | 'wrong-data' | 'slow' | 'feature' | 'other';

export interface DescribedError {
  status: number;
  code: ErrorCode;
  message: string;
  details: ErrorDetail[];
  /** Report Center category the error's reportUrl pre-selects. */
  reportCategory: ReportCategory;
  headers: Record<string, string>;
}

const internalError = (): DescribedError => ({
  status: 500,
  code: 'INTERNAL_ERROR',
  message: 'Something went wrong on our side. Please report it with the requestId so we can fix it.',
  details: [],
  reportCategory: 'bug',
  headers: {},
});

/** The one table from error type to HTTP status, contract code and a message a person can act on. */
export function describeError(error: unknown): DescribedError {
  const base = { details: [] as ErrorDetail[], headers: {} as Record<string, string> };
  if (error instanceof InvalidParameterError)
    return { ...base, status: 400, code: 'INVALID_PARAMETER', message: `${error.message}. See details.`, details: error.details, reportCategory: 'bug' };
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
      message: 'The upstream has no such page; the requested page is probably past the last one.',
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
      message: `The upstream's anti-bot protection could not be passed right now. Retry after ${error.retryAfterSeconds} seconds.`,
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
  return internalError();
}

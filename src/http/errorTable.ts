import { ERROR_CODES } from '../contract/errorCodes.js';
import type { ErrorCode, ErrorDetail } from '../contract/schemas.js';
import { CatalogNotReadyError } from '../crawler/errors.js';
import { LayoutChangedError, PagePastEndError } from '../parsers/errors.js';
import { ReportNotStoredError } from '../reports/errors.js';
import type { ReportCategory } from '../reports/schema.js';
import {
  type BlockReason,
  ServiceBusyError,
  UpstreamBadResponseError,
  UpstreamBlockedError,
  UpstreamMovedError,
  UpstreamNotFoundError,
  UpstreamSuspectPageError,
  UpstreamTimeoutError,
  UpstreamUnavailableError,
  UpstreamUnreadablePageError,
  type UnreadableReason,
} from '../upstream/errors.js';
import {
  InvalidBodyError,
  InvalidParameterError,
  CrossSiteFormError,
  MalformedPathError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RateLimitedError,
  RouteNotFoundError,
  UnauthorizedError,
} from './errors.js';

// The one error mapper. Each error class names its contract code, message and Report Center
// category once (ERROR_CLASSES); describeError reads them, and each code's status from the
// contract's table (src/contract/errorCodes.ts).

export interface DescribedError {
  status: number;
  code: ErrorCode;
  message: string;
  details: ErrorDetail[];
  /** Report Center category the error's reportUrl pre-selects. */
  reportCategory: ReportCategory;
  headers: Record<string, string>;
  /** Why a client's request was refused at the edge; logged at info, never as our failure. */
  reason?: string;
}

/** What one error class answers; its status is its code's (ERROR_CODES). */
interface ClassAnswer<E extends Error> {
  code: ErrorCode;
  reportCategory: ReportCategory;
  message: (error: E) => string;
  details?: (error: E) => ErrorDetail[];
  headers?: (error: E) => Record<string, string>;
  /** A client's mistake worth a line in the info log. */
  reason?: (error: E) => string;
}

type ErrorClass<E extends Error> = abstract new (...args: never[]) => E;

const answers = <E extends Error>(errorClass: ErrorClass<E>, answer: ClassAnswer<E>) => [errorClass, answer as ClassAnswer<Error>] as const;

const retryAfter = (error: { retryAfterSeconds: number }) => ({ 'Retry-After': String(error.retryAfterSeconds) });

const BLOCKED_MESSAGES: Record<BlockReason, string> = {
  'no-solver': "The upstream's anti-bot protection stands in the way and this service has no challenge solver configured.",
  'solve-failed': "The upstream's anti-bot challenge could not be solved right now.",
  'solve-pending': "The upstream's anti-bot challenge is still being solved; the next request should get through.",
  refused: "The upstream's anti-bot protection refuses this service right now.",
  firewall: "The upstream's firewall blocks this service.",
  'rate-limited': 'The upstream is rate limiting this service, which pauses its requests as asked.',
};

const UNREADABLE_MESSAGES: Record<UnreadableReason, string> = {
  'too-large':
    'The upstream page is larger than any page of the catalog, so this service does not read it. Try again later; report it if it keeps happening.',
  'cut-off': 'The upstream page arrived cut off before its end. Try again in a minute; report it if it keeps happening.',
  unparsable:
    'The upstream page could not be read within the time this service gives one page (its markup is malformed). Please report it.',
};

const UPSTREAM_HAS_NO_SUCH_PAGE = 'The upstream has no such page: the slug is unknown there, or the page number is past the last one.';
const MALFORMED = 'The request is malformed. See details.';
const MALFORMED_PATH: ErrorDetail = {
  field: 'path',
  rule: 'percent-encoded UTF-8',
  message: 'The path has a "%" that is not followed by valid percent-encoded UTF-8',
};
// Our own words: the message of the library or of Node's HTTP parser that refused the request goes to the log only.
const MALFORMED_REQUEST: ErrorDetail = {
  field: 'request',
  rule: 'well-formed HTTP',
  message:
    'The request line or a header does not follow HTTP/1.1: look for spaces or raw bytes outside ASCII in the URL, or a malformed header',
};

/** Each error class's code, message and Report Center category; a subclass answers as its nearest listed ancestor. */
const ERROR_CLASSES = new Map<ErrorClass<Error>, ClassAnswer<Error>>([
  answers(InvalidParameterError, {
    code: 'INVALID_PARAMETER',
    reportCategory: 'bug',
    message: (error) => `${error.message}. See details.`,
    details: (error) => error.details,
  }),
  answers(InvalidBodyError, {
    code: 'INVALID_PARAMETER',
    reportCategory: 'bug',
    message: (error) => `${error.message}. See details.`,
    details: (error) => error.details,
  }),
  answers(MalformedPathError, {
    code: 'INVALID_PARAMETER',
    reportCategory: 'bug',
    message: () => MALFORMED,
    details: () => [MALFORMED_PATH],
    reason: (error) => error.message,
  }),
  answers(CrossSiteFormError, {
    code: 'INVALID_PARAMETER',
    reportCategory: 'bug',
    message: () => MALFORMED,
    details: () => [
      { field: 'Origin', rule: "this service's own pages", message: "The report form can only be sent from the Report Center's own page" },
    ],
  }),
  answers(PayloadTooLargeError, {
    code: 'PAYLOAD_TOO_LARGE',
    reportCategory: 'bug',
    message: (error) => `The request body is larger than ${Math.round(error.limitBytes / 1024)} KB. Shorten the text and send it again.`,
  }),
  answers(UnauthorizedError, {
    code: 'UNAUTHORIZED',
    reportCategory: 'other',
    message: () => 'Send the operator token as "Authorization: Bearer <ADMIN_TOKEN>".',
    headers: () => ({ 'WWW-Authenticate': 'Bearer realm="admin"' }),
  }),
  answers(RouteNotFoundError, { code: 'NOT_FOUND', reportCategory: 'bug', message: (error) => error.message }),
  answers(MethodNotAllowedError, {
    code: 'METHOD_NOT_ALLOWED',
    reportCategory: 'bug',
    message: (error) => error.message,
    headers: (error) => ({ Allow: error.allow }),
  }),
  answers(RateLimitedError, {
    code: 'RATE_LIMITED',
    reportCategory: 'other',
    message: (error) =>
      `You have used all ${error.limit} ${error.subject} of this window. Try again in ${error.retryAfterSeconds} seconds, when it resets.`,
    headers: retryAfter,
  }),
  answers(PagePastEndError, { code: 'NOT_FOUND', reportCategory: 'wrong-data', message: () => UPSTREAM_HAS_NO_SUCH_PAGE }),
  answers(UpstreamNotFoundError, { code: 'NOT_FOUND', reportCategory: 'wrong-data', message: () => UPSTREAM_HAS_NO_SUCH_PAGE }),
  answers(LayoutChangedError, {
    code: 'UPSTREAM_LAYOUT_CHANGED',
    reportCategory: 'wrong-data',
    message: (error) =>
      `The upstream ${error.pageKind} page no longer has the layout this API reads. Please report it; a parser update fixes it.`,
  }),
  answers(UpstreamBlockedError, {
    code: 'UPSTREAM_BLOCKED',
    reportCategory: 'api-down',
    message: (error) => `${BLOCKED_MESSAGES[error.reason]} Retry after ${error.retryAfterSeconds} seconds.`,
    headers: retryAfter,
  }),
  answers(CatalogNotReadyError, {
    code: 'CATALOG_NOT_READY',
    reportCategory: 'api-down',
    message: (error) =>
      error.reason === 'disabled'
        ? 'This service does not keep a copy of the catalog (its crawler is turned off), so it cannot answer from one.'
        : `This service's copy of the catalog is still empty: its crawler has only just started. Retry after ${error.retryAfterSeconds} seconds.`,
    headers: retryAfter,
  }),
  answers(ReportNotStoredError, {
    code: 'REPORT_NOT_STORED',
    reportCategory: 'api-down',
    message: (error) =>
      `This service could not store the report right now (its disk is full or failing); nothing was kept. Send it again after ${error.retryAfterSeconds} seconds.`,
    headers: retryAfter,
  }),
  answers(UpstreamUnavailableError, {
    code: 'UPSTREAM_UNAVAILABLE',
    reportCategory: 'api-down',
    message: (error) =>
      `The upstream site keeps failing, so this service is giving it a short pause. Retry after ${error.retryAfterSeconds} seconds.`,
    headers: retryAfter,
  }),
  answers(ServiceBusyError, {
    code: 'SERVICE_BUSY',
    reportCategory: 'slow',
    message: (error) =>
      `This service is too busy to take the request right now (its own queue is full; the upstream site is not to blame). Retry after ${error.retryAfterSeconds} seconds.`,
    headers: retryAfter,
  }),
  answers(UpstreamTimeoutError, {
    code: 'UPSTREAM_TIMEOUT',
    reportCategory: 'slow',
    message: () => 'The upstream site did not answer in time. Try again in a minute; report it if it keeps happening.',
  }),
  answers(UpstreamMovedError, {
    code: 'UPSTREAM_ERROR',
    reportCategory: 'api-down',
    message: () => 'The upstream site redirected to another domain; it has probably moved. Please report it so we can follow the move.',
  }),
  answers(UpstreamSuspectPageError, {
    code: 'UPSTREAM_ERROR',
    reportCategory: 'api-down',
    message: () =>
      'The upstream domain answers with a page that is not the catalog (parked or moved?). Please report it so we can follow the move.',
  }),
  answers(UpstreamUnreadablePageError, {
    code: 'UPSTREAM_ERROR',
    reportCategory: 'api-down',
    message: (error) => UNREADABLE_MESSAGES[error.reason],
  }),
  answers(UpstreamBadResponseError, {
    code: 'UPSTREAM_ERROR',
    reportCategory: 'api-down',
    message: (error) =>
      error.status === null
        ? 'The upstream site could not be reached. Try again later.'
        : `The upstream site answered with an error (HTTP ${error.status}). Try again later.`,
  }),
]);

/**
 * The message of each code a 4xx carried by an error of the libraries at the edge (body-parser,
 * send, router: http-errors) or by Node's HTTP parser (MalformedRequestError) maps to; any other
 * 4xx is a malformed request (400).
 */
const CARRIED_STATUS_MESSAGES: Partial<Record<ErrorCode, string>> = {
  NOT_FOUND: 'There is no such path. The endpoints are listed at /.',
  REQUEST_TIMEOUT: 'The request did not arrive in time. Send it again, without pauses.',
  PAYLOAD_TOO_LARGE: 'The request is larger than this service reads. Shorten it and send it again.',
  UNSUPPORTED_MEDIA_TYPE: 'Send the body as UTF-8, uncompressed or with Content-Encoding gzip, deflate or br.',
  RANGE_NOT_SATISFIABLE: 'The requested byte range lies outside the file. Ask without a Range header for the whole file.',
  REQUEST_HEADERS_TOO_LARGE: 'The request line and headers are over 16 KB. Shorten the URL or the headers.',
};

/** The 4xx an error carries (http-errors' `status` or `statusCode`), if any. */
function carriedClientStatus(error: Error): number | undefined {
  const { status, statusCode } = error as Error & { status?: unknown; statusCode?: unknown };
  const carried = status ?? statusCode;
  return typeof carried === 'number' && carried >= 400 && carried <= 499 ? carried : undefined;
}

function classAnswerOf(error: Error): ClassAnswer<Error> | undefined {
  for (
    let prototype: unknown = Object.getPrototypeOf(error);
    prototype !== null && prototype !== Error.prototype;
    prototype = Object.getPrototypeOf(prototype)
  ) {
    const answer = ERROR_CLASSES.get((prototype as { constructor: ErrorClass<Error> }).constructor);
    if (answer !== undefined) return answer;
  }
  return undefined;
}

function describeCarriedStatus(status: number, error: Error): DescribedError {
  const base = { reportCategory: 'bug' as const, headers: {}, reason: error.message, details: [] };
  const code = (Object.keys(CARRIED_STATUS_MESSAGES) as ErrorCode[]).find((candidate) => ERROR_CODES[candidate].status === status);
  if (code !== undefined) return { ...base, status, code, message: CARRIED_STATUS_MESSAGES[code]! };
  // router throws a URIError for a path segment whose percent-encoding does not decode.
  const detail = error instanceof URIError ? MALFORMED_PATH : MALFORMED_REQUEST;
  return { ...base, status: ERROR_CODES.INVALID_PARAMETER.status, code: 'INVALID_PARAMETER', message: MALFORMED, details: [detail] };
}

/** The answer to an error: its status, contract code, a message a person can act on, details and headers. */
export function describeError(error: unknown): DescribedError {
  if (error instanceof Error) {
    const answer = classAnswerOf(error);
    if (answer !== undefined) {
      const described: DescribedError = {
        status: ERROR_CODES[answer.code].status,
        code: answer.code,
        message: answer.message(error),
        details: answer.details?.(error) ?? [],
        reportCategory: answer.reportCategory,
        headers: answer.headers?.(error) ?? {},
      };
      if (answer.reason !== undefined) described.reason = answer.reason(error);
      return described;
    }
    const carried = carriedClientStatus(error);
    if (carried !== undefined) return describeCarriedStatus(carried, error);
  }
  return {
    status: ERROR_CODES.INTERNAL_ERROR.status,
    code: 'INTERNAL_ERROR',
    message: 'Something went wrong on our side. Please report it with the requestId so we can fix it.',
    details: [],
    reportCategory: 'bug',
    headers: {},
  };
}

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
  UpstreamUnreadablePageError,
  type UnreadableReason,
} from '../upstream/errors.js';
import {
  InvalidBodyError,
  InvalidParameterError,
  MalformedPathError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RateLimitedError,
  RouteNotFoundError,
  UnauthorizedError,
} from './errors.js';
import { BODY_LIMIT_BYTES } from './middleware/body.js';
import { SERVER_TIMEOUTS } from './serverTimeouts.js';

// The one error table. Each contract code has its HTTP status and its documentation here (the API
// reference, /openapi.json and the error pages read ERROR_CODES); each error class names its code,
// message and Report Center category once (ERROR_CLASSES); describeError reads both.

export interface ErrorCodeDoc {
  status: number;
  /** For /openapi.json (English, like the rest of the JSON API). */
  when: string;
  /** For the web pages (Bahasa Indonesia). */
  kapan: string;
}

const bodyLimitKb = BODY_LIMIT_BYTES / 1024;
const headersSeconds = SERVER_TIMEOUTS.headersTimeoutMs / 1000;
const requestSeconds = SERVER_TIMEOUTS.requestTimeoutMs / 1000;

/** Each contract code's HTTP status, and what it means for the API reference, /openapi.json and the error pages. */
export const ERROR_CODES: Record<ErrorCode, ErrorCodeDoc> = {
  INVALID_PARAMETER: {
    status: 400,
    when: 'A query parameter or body field is missing or breaks its rule; `details` names each field and the rule',
    kapan: 'Parameter query atau isian body kosong atau melanggar aturannya; details menyebut tiap isian dan aturannya',
  },
  UNAUTHORIZED: {
    status: 401,
    when: 'An operator endpoint without the right bearer token',
    kapan: 'Endpoint operator tanpa token bearer yang benar',
  },
  NOT_FOUND: {
    status: 404,
    when: 'No such route, or the upstream has no such page (e.g. a page past the last one)',
    kapan: 'Rute tidak ada, atau upstream tidak punya halaman itu (misalnya halaman setelah halaman terakhir)',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    when: 'A method the route does not take (the Allow header lists the ones it does)',
    kapan: 'Metode yang tidak diterima rute itu (header Allow menyebut yang diterima)',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    when: `The request headers (${headersSeconds} s) or the whole request (${requestSeconds} s) did not arrive in time`,
    kapan: `Header permintaan (${headersSeconds} detik) atau seluruh permintaan (${requestSeconds} detik) tidak tiba tepat waktu`,
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    when: `A request body over ${bodyLimitKb} KB (declared in Content-Length, or counted as a chunked body arrives)`,
    kapan: `Body permintaan lebih dari ${bodyLimitKb} KB (menurut Content-Length, atau dihitung saat body chunked tiba)`,
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    when: 'A request body in a Content-Encoding other than gzip, deflate or br, or a charset other than UTF-8',
    kapan: 'Body permintaan dengan Content-Encoding selain gzip, deflate atau br, atau charset selain UTF-8',
  },
  RANGE_NOT_SATISFIABLE: {
    status: 416,
    when: 'A Range header on a static file that asks for bytes past its end',
    kapan: 'Header Range pada berkas statis yang meminta byte di luar akhir berkas',
  },
  RATE_LIMITED: {
    status: 429,
    when: "This IP's quota of the current window is used up; Retry-After says in how many seconds it resets",
    kapan: 'Kuota IP ini untuk jendela waktu sekarang sudah habis; Retry-After menyebut berapa detik lagi kuota direset',
  },
  REQUEST_HEADERS_TOO_LARGE: {
    status: 431,
    when: 'The request line (the URL) and headers together are over 16 KB',
    kapan: 'Baris permintaan (URL) dan header bersama-sama lebih dari 16 KB',
  },
  UPSTREAM_ERROR: {
    status: 502,
    when: 'The upstream answered with an error, could not be reached, redirected to another domain, or served a page that is too large, cut off or not readable in time',
    kapan: 'Situs sumber menjawab dengan error, tidak bisa dihubungi, dialihkan ke domain lain, atau mengirim halaman yang terlalu besar, terpotong, atau tidak terbaca tepat waktu',
  },
  UPSTREAM_LAYOUT_CHANGED: {
    status: 502,
    when: 'The page came back without what must be on it (a redesign); never an empty success',
    kapan: 'Halaman sumber kembali tanpa bagian yang wajib ada (tampilannya berubah); tidak pernah dijawab sukses kosong',
  },
  UPSTREAM_BLOCKED: {
    status: 503,
    when: "The upstream's anti-bot wall could not be passed right now; Retry-After says when to try again",
    kapan: 'Dinding anti-bot situs sumber belum bisa dilewati; Retry-After menyebut kapan mencoba lagi',
  },
  UPSTREAM_UNAVAILABLE: {
    status: 503,
    when: 'The upstream keeps failing and requests to it are paused; Retry-After says when to try again',
    kapan: 'Situs sumber terus gagal dan permintaan ke sana dijeda; Retry-After menyebut kapan mencoba lagi',
  },
  UPSTREAM_TIMEOUT: {
    status: 504,
    when: 'The upstream did not answer in time',
    kapan: 'Situs sumber tidak menjawab tepat waktu',
  },
  SERVICE_BUSY: {
    status: 503,
    when: "The service's own queue (connections to the upstream, parse threads) is full right now; the upstream is not to blame. Retry-After says when to try again",
    kapan: 'Antrean layanan ini sendiri (koneksi ke situs sumber, thread pengurai) sedang penuh; bukan salah situs sumber. Retry-After menyebut kapan mencoba lagi',
  },
  CATALOG_NOT_READY: {
    status: 503,
    when: 'The export or a search with source=catalog was asked while the catalog crawler is turned off or has read nothing yet; Retry-After says when to try again',
    kapan: 'Ekspor atau pencarian source=catalog diminta saat perayap katalog dimatikan atau belum membaca apa pun; Retry-After menyebut kapan mencoba lagi',
  },
  INTERNAL_ERROR: {
    status: 500,
    when: 'A bug on our side; the body never holds a stack trace',
    kapan: 'Bug di sisi kami; body tidak pernah memuat stack trace',
  },
};

/** Codes any route can answer for a malformed request (the error table lists them); not repeated per endpoint. */
const REQUEST_CODES: ErrorCode[] = ['REQUEST_TIMEOUT', 'UNSUPPORTED_MEDIA_TYPE', 'RANGE_NOT_SATISFIABLE', 'REQUEST_HEADERS_TOO_LARGE'];

/** The codes a /catalog endpoint can answer with; INVALID_PARAMETER only where it takes parameters. */
export function catalogErrorCodes(takesParameters: boolean): ErrorCode[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter(
    (code) =>
      code !== 'UNAUTHORIZED' &&
      code !== 'PAYLOAD_TOO_LARGE' &&
      // Only the local catalog's answers (the export, search with source=catalog) wait for the crawler.
      code !== 'CATALOG_NOT_READY' &&
      !REQUEST_CODES.includes(code) &&
      (takesParameters || code !== 'INVALID_PARAMETER'),
  );
}

/** The codes POST /api/reports can answer with. */
export const REPORT_ERROR_CODES: ErrorCode[] = [
  'INVALID_PARAMETER',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
];

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
  'too-large': 'The upstream page is larger than any page of the catalog, so this service does not read it. Try again later; report it if it keeps happening.',
  'cut-off': 'The upstream page arrived cut off before its end. Try again in a minute; report it if it keeps happening.',
  unparsable: 'The upstream page could not be read within the time this service gives one page (its markup is malformed). Please report it.',
};

const UPSTREAM_HAS_NO_SUCH_PAGE = 'The upstream has no such page: the slug is unknown there, or the page number is past the last one.';
const MALFORMED = 'The request is malformed. See details.';
const MALFORMED_PATH: ErrorDetail = {
  field: 'path',
  rule: 'percent-encoded UTF-8',
  message: 'The path has a "%" that is not followed by valid percent-encoded UTF-8',
};

/** Each error class's code, message and Report Center category; a subclass answers as its nearest listed ancestor. */
const ERROR_CLASSES = new Map<ErrorClass<Error>, ClassAnswer<Error>>([
  answers(InvalidParameterError, { code: 'INVALID_PARAMETER', reportCategory: 'bug', message: (error) => `${error.message}. See details.`, details: (error) => error.details }),
  answers(InvalidBodyError, { code: 'INVALID_PARAMETER', reportCategory: 'bug', message: (error) => `${error.message}. See details.`, details: (error) => error.details }),
  answers(MalformedPathError, { code: 'INVALID_PARAMETER', reportCategory: 'bug', message: () => MALFORMED, details: () => [MALFORMED_PATH], reason: (error) => error.message }),
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
  answers(MethodNotAllowedError, { code: 'METHOD_NOT_ALLOWED', reportCategory: 'bug', message: (error) => error.message, headers: (error) => ({ Allow: error.allow }) }),
  answers(RateLimitedError, {
    code: 'RATE_LIMITED',
    reportCategory: 'other',
    message: (error) => `You have used all ${error.limit} ${error.subject} of this window. Try again in ${error.retryAfterSeconds} seconds, when it resets.`,
    headers: retryAfter,
  }),
  answers(PagePastEndError, { code: 'NOT_FOUND', reportCategory: 'wrong-data', message: () => UPSTREAM_HAS_NO_SUCH_PAGE }),
  answers(UpstreamNotFoundError, { code: 'NOT_FOUND', reportCategory: 'wrong-data', message: () => UPSTREAM_HAS_NO_SUCH_PAGE }),
  answers(LayoutChangedError, {
    code: 'UPSTREAM_LAYOUT_CHANGED',
    reportCategory: 'wrong-data',
    message: (error) => `The upstream ${error.pageKind} page no longer has the layout this API reads. Please report it; a parser update fixes it.`,
  }),
  answers(UpstreamBlockedError, {
    code: 'UPSTREAM_BLOCKED',
    reportCategory: 'api-down',
    message: (error) => `${BLOCKED_MESSAGES[error.reason]} Retry after ${error.retryAfterSeconds} seconds.`,
    headers: retryAfter,
  }),
  answers(UpstreamUnavailableError, {
    code: 'UPSTREAM_UNAVAILABLE',
    reportCategory: 'api-down',
    message: (error) => `The upstream site keeps failing, so this service is giving it a short pause. Retry after ${error.retryAfterSeconds} seconds.`,
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
    message: () => 'The upstream domain answers with a page that is not the catalog (parked or moved?). Please report it so we can follow the move.',
  }),
  answers(UpstreamUnreadablePageError, { code: 'UPSTREAM_ERROR', reportCategory: 'api-down', message: (error) => UNREADABLE_MESSAGES[error.reason] }),
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
  for (let prototype: unknown = Object.getPrototypeOf(error); prototype !== null && prototype !== Error.prototype; prototype = Object.getPrototypeOf(prototype)) {
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
  const detail = error instanceof URIError ? MALFORMED_PATH : { field: 'request', rule: 'well-formed HTTP', message: error.message };
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

import type { ErrorCode } from '../contract/schemas.js';
import { BODY_LIMIT_BYTES } from './middleware/body.js';
import { SERVER_TIMEOUTS } from './serverTimeouts.js';

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

/**
 * What each contract code means, for the API reference, /openapi.json and the error pages.
 * The mapping itself is describeError's; a unit test holds the two statuses together.
 */
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
    when: `A request body over ${bodyLimitKb} KB (judged on Content-Length when it is declared)`,
    kapan: `Body permintaan lebih dari ${bodyLimitKb} KB (dinilai dari Content-Length bila disebutkan)`,
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
    when: 'The upstream answered with an error, could not be reached, or redirected to another domain',
    kapan: 'Situs sumber menjawab dengan error, tidak bisa dihubungi, atau dialihkan ke domain lain',
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
      code !== 'UNAUTHORIZED' && code !== 'PAYLOAD_TOO_LARGE' && !REQUEST_CODES.includes(code) && (takesParameters || code !== 'INVALID_PARAMETER'),
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

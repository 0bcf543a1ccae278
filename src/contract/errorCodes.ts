import type { ErrorCode } from './schemas.js';
import { BODY_LIMIT_BYTES, SERVER_TIMEOUTS } from '../config/requestLimits.js';

// Each contract code's HTTP status and documentation: the API reference, /openapi.json and the
// error pages read ERROR_CODES; the error mapper (src/http/errorTable.ts) gives each code's status.

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
    kapan:
      'Situs sumber menjawab dengan error, tidak bisa dihubungi, dialihkan ke domain lain, atau mengirim halaman yang terlalu besar, terpotong, atau tidak terbaca tepat waktu',
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
    kapan:
      'Antrean layanan ini sendiri (koneksi ke situs sumber, thread pengurai) sedang penuh; bukan salah situs sumber. Retry-After menyebut kapan mencoba lagi',
  },
  CATALOG_NOT_READY: {
    status: 503,
    when: 'The export or a search with source=catalog was asked while the catalog crawler is turned off or has read nothing yet; Retry-After says when to try again',
    kapan:
      'Ekspor atau pencarian source=catalog diminta saat perayap katalog dimatikan atau belum membaca apa pun; Retry-After menyebut kapan mencoba lagi',
  },
  REPORT_NOT_STORED: {
    status: 503,
    when: "A report could not be written to this service's disk (full, or failing); nothing was stored. Retry-After says when to send it again",
    kapan:
      'Laporan tidak bisa ditulis ke disk layanan ini (penuh atau rusak); tidak ada yang tersimpan. Retry-After menyebut kapan mengirim lagi',
  },
  INTERNAL_ERROR: {
    status: 500,
    when: 'A bug on our side; the body never holds a stack trace',
    kapan: 'Bug di sisi kami; body tidak pernah memuat stack trace',
  },
};

/** Codes any route can answer for a malformed request (the error table lists them); not repeated per endpoint. */
const REQUEST_CODES: ErrorCode[] = ['REQUEST_TIMEOUT', 'UNSUPPORTED_MEDIA_TYPE', 'RANGE_NOT_SATISFIABLE', 'REQUEST_HEADERS_TOO_LARGE'];

/** The query parameter by which an endpoint can answer from the local catalog (search's `source=catalog`). */
export const LOCAL_CATALOG_PARAMETER = 'source';

/**
 * The codes a /catalog endpoint can answer with: INVALID_PARAMETER only where it takes parameters,
 * CATALOG_NOT_READY only where it can answer from the local catalog (search, by its `source`).
 */
export function catalogErrorCodes(takesParameters: boolean, readsLocalCatalog = false): ErrorCode[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter(
    (code) =>
      code !== 'UNAUTHORIZED' &&
      code !== 'PAYLOAD_TOO_LARGE' &&
      code !== 'REPORT_NOT_STORED' &&
      // Only the local catalog's answers (the export, search with source=catalog) wait for the crawler.
      (readsLocalCatalog || code !== 'CATALOG_NOT_READY') &&
      !REQUEST_CODES.includes(code) &&
      (takesParameters || code !== 'INVALID_PARAMETER'),
  );
}

/** The export's codes: it takes no parameters and never reads the upstream. */
export const EXPORT_ERROR_CODES: ErrorCode[] = ['NOT_FOUND', 'METHOD_NOT_ALLOWED', 'RATE_LIMITED', 'CATALOG_NOT_READY', 'INTERNAL_ERROR'];

/** The codes POST /api/reports can answer with. */
export const REPORT_ERROR_CODES: ErrorCode[] = [
  'INVALID_PARAMETER',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'REPORT_NOT_STORED',
  'INTERNAL_ERROR',
];

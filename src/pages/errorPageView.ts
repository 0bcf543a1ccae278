import type { Request } from 'express';
import type { ErrorCode } from '../contract/schemas.js';
import { ERROR_CODES } from '../contract/errorCodes.js';

export interface ErrorPageView {
  status: number;
  code: ErrorCode;
  heading: string;
  explanation: string;
  requestId: string;
  reportUrl: string;
}

// The JSON paths Express answers (the API's door answers /catalog and /feeds itself): the reports
// API, the operator endpoints and the OpenAPI document.
const JSON_PATH = /^\/(api|admin)(\/|$)|^\/openapi\.json$/;

/** A person's browser asking for a page gets an error page; every other client, and every JSON path, gets the envelope. */
export function wantsErrorPage(req: Request): boolean {
  return !JSON_PATH.test(req.path) && req.accepts(['json', 'html']) === 'html';
}

export function errorPageView(status: number, code: ErrorCode, requestId: string, reportUrl: string): ErrorPageView {
  return {
    status,
    code,
    heading: status === 404 ? 'Halaman tidak ditemukan' : 'Maaf, terjadi kesalahan',
    explanation: ERROR_CODES[code].kapan,
    requestId,
    reportUrl,
  };
}

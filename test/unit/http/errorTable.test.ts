import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src/contract/schemas.js';
import { catalogErrorCodes, ERROR_CODES } from '../../../src/contract/errorCodes.js';
import { describeError } from '../../../src/http/errorTable.js';
import {
  InvalidBodyError,
  MalformedPathError,
  InvalidParameterError,
  MalformedRequestError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RateLimitedError,
  RouteNotFoundError,
  UnauthorizedError,
} from '../../../src/http/errors.js';
import { LayoutChangedError } from '../../../src/parsers/errors.js';
import {
  UpstreamBadResponseError,
  UpstreamBlockedError,
  UpstreamNotFoundError,
  UpstreamTimeoutError,
} from '../../../src/upstream/errors.js';

describe('the error table', () => {
  it('documents every contract code', () => {
    expect(Object.keys(ERROR_CODES).sort()).toEqual([...ErrorCode.options].sort());
  });

  it.each([
    [new InvalidParameterError([{ field: 'page', rule: 'integer 1-500', message: 'm' }]), 400, 'INVALID_PARAMETER'],
    [new InvalidBodyError([{ field: 'title', rule: 'required', message: 'm' }]), 400, 'INVALID_PARAMETER'],
    [new UnauthorizedError('no token'), 401, 'UNAUTHORIZED'],
    [new RouteNotFoundError('GET', '/nope'), 404, 'NOT_FOUND'],
    [new MethodNotAllowedError('POST', '/catalog/home', 'GET, HEAD'), 405, 'METHOD_NOT_ALLOWED'],
    [new PayloadTooLargeError(32768), 413, 'PAYLOAD_TOO_LARGE'],
    [new RateLimitedError(50, 'API requests', 60), 429, 'RATE_LIMITED'],
    [new LayoutChangedError('home', ['slider']), 502, 'UPSTREAM_LAYOUT_CHANGED'],
    [new UpstreamTimeoutError('slow', 'https://example.test/'), 504, 'UPSTREAM_TIMEOUT'],
    [new UpstreamNotFoundError('gone', 'https://example.test/x/'), 404, 'NOT_FOUND'],
    [new UpstreamBlockedError('wall', 'https://example.test/', 30, 'firewall'), 503, 'UPSTREAM_BLOCKED'],
    [new UpstreamBadResponseError('boom', 'https://example.test/', 500), 502, 'UPSTREAM_ERROR'],
    [new MalformedPathError("Failed to decode '%zz'"), 400, 'INVALID_PARAMETER'],
    [new MalformedRequestError(400, 'Parse Error: Invalid method encountered'), 400, 'INVALID_PARAMETER'],
    [new MalformedRequestError(408, 'Request timeout'), 408, 'REQUEST_TIMEOUT'],
    [new MalformedRequestError(431, 'Header overflow'), 431, 'REQUEST_HEADERS_TOO_LARGE'],
    [Object.assign(new Error('unsupported content encoding "compress"'), { status: 415 }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [Object.assign(new Error('Range Not Satisfiable'), { statusCode: 416 }), 416, 'RANGE_NOT_SATISFIABLE'],
    [Object.assign(new Error('Not Found'), { status: 404 }), 404, 'NOT_FOUND'],
    [Object.assign(new Error('Forbidden'), { status: 403 }), 400, 'INVALID_PARAMETER'],
    [Object.assign(new Error('a bug of a library'), { status: 500 }), 500, 'INTERNAL_ERROR'],
    [new Error('boom'), 500, 'INTERNAL_ERROR'],
  ])('states the status describeError gives %s', (error, status, code) => {
    const described = describeError(error);
    expect([described.status, described.code]).toEqual([status, code]);
    expect(ERROR_CODES[described.code].status).toBe(status);
  });

  it('answers a subclass as its nearest listed ancestor', () => {
    class RateLimitedReportError extends RateLimitedError {}
    expect(describeError(new RateLimitedReportError(5, 'reports', 9))).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      headers: { 'Retry-After': '9' },
    });
  });

  it('gives each error its message, details and headers', () => {
    expect(describeError(new UpstreamBlockedError('wall', 'https://example.test/', 30, 'firewall'))).toEqual({
      status: 503,
      code: 'UPSTREAM_BLOCKED',
      message: "The upstream's firewall blocks this service. Retry after 30 seconds.",
      details: [],
      reportCategory: 'api-down',
      headers: { 'Retry-After': '30' },
    });
    expect(describeError(new UpstreamBadResponseError('down', 'https://example.test/', null)).message).toBe(
      'The upstream site could not be reached. Try again later.',
    );
    expect(describeError(new InvalidParameterError([{ field: 'page', rule: 'integer 1-500', message: 'm' }]))).toMatchObject({
      message: 'Invalid query parameter: page. See details.',
      details: [{ field: 'page', rule: 'integer 1-500', message: 'm' }],
    });
    expect(describeError(new MethodNotAllowedError('POST', '/catalog/home', 'GET, HEAD')).headers).toEqual({ Allow: 'GET, HEAD' });
  });

  it('describes a too-large body and a missing token with their headers', () => {
    expect(describeError(new PayloadTooLargeError(32768)).message).toBe(
      'The request body is larger than 32 KB. Shorten the text and send it again.',
    );
    expect(describeError(new UnauthorizedError('no token')).headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="admin"' });
  });

  it('keeps the 4xx a library error carries, with its reason for the info log', () => {
    const uriError = Object.assign(new URIError("Failed to decode param '%zz'"), { status: 400 });
    expect(describeError(uriError)).toEqual({
      status: 400,
      code: 'INVALID_PARAMETER',
      message: 'The request is malformed. See details.',
      details: [
        { field: 'path', rule: 'percent-encoded UTF-8', message: 'The path has a "%" that is not followed by valid percent-encoded UTF-8' },
      ],
      reportCategory: 'bug',
      headers: {},
      reason: "Failed to decode param '%zz'",
    });
    expect(describeError(new MalformedPathError("Failed to decode '%zz'"))).toEqual({
      ...describeError(uriError),
      reason: "Failed to decode '%zz'",
    });
    expect(describeError(new Error('boom')).reason).toBeUndefined();
  });

  it('lists what a catalog endpoint can answer, INVALID_PARAMETER only where it takes parameters', () => {
    const withParameters = catalogErrorCodes(true);
    expect(withParameters).toEqual([
      'INVALID_PARAMETER',
      'NOT_FOUND',
      'METHOD_NOT_ALLOWED',
      'RATE_LIMITED',
      'UPSTREAM_ERROR',
      'UPSTREAM_LAYOUT_CHANGED',
      'UPSTREAM_BLOCKED',
      'UPSTREAM_UNAVAILABLE',
      'UPSTREAM_TIMEOUT',
      'SERVICE_BUSY',
      'INTERNAL_ERROR',
    ]);
    expect(catalogErrorCodes(false)).toEqual(withParameters.slice(1));
  });
});

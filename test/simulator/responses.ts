import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TerminalFault } from './faults.js';
import { challengePage, type LiveChallenge } from './pages/challengePage.js';
import { cloudflareErrorPage, errorPage, parkedPage } from './pages/errorPage.js';
import { EncodedBody } from './renderedPages.js';
import type { SiteAnswer } from './site.js';

/** Status, headers and body of one simulated answer, and how to put it on the wire. */
export interface SimResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Text, or a page the simulator keeps already encoded (see renderedPages.ts). */
  readonly body: string | EncodedBody;
}

/** Timers still running for a response; the simulator clears them when it closes. */
export interface TimerRegistry {
  add(timer: NodeJS.Timeout): void;
  delete(timer: NodeJS.Timeout): void;
}

const HTML = 'text/html; charset=UTF-8';

/** The site sits behind Cloudflare: every answer carries its edge headers. */
function edgeHeaders(ray: string): Record<string, string> {
  return { 'content-type': HTML, server: 'cloudflare', 'cf-ray': ray, 'cf-cache-status': 'DYNAMIC', vary: 'Accept-Encoding' };
}

export function siteResponse(answer: SiteAnswer, origin: string, ray: string): SimResponse {
  const headers = edgeHeaders(ray);
  if (answer.status === 301) {
    return { status: 301, headers: { ...headers, location: answer.location, 'x-redirect-by': 'WordPress' }, body: '' };
  }
  if (answer.status === 404) {
    // WordPress's nocache_headers() on 404s.
    return {
      status: 404,
      headers: { ...headers, 'cache-control': 'no-cache, must-revalidate, max-age=0', expires: 'Wed, 11 Jan 1984 05:00:00 GMT' },
      body: answer.html,
    };
  }
  return { status: 200, headers: { ...headers, link: `<${origin}/wp-json/>; rel="https://api.w.org/"` }, body: answer.html };
}

export function faultResponse(
  fault: Exclude<TerminalFault, { kind: 'hang' | 'not-found' }>,
  pathWithQuery: string,
  host: string,
  ray: string,
): SimResponse {
  const headers = edgeHeaders(ray);
  switch (fault.kind) {
    case 'status':
      return { status: fault.status, headers, body: errorPage(fault.status) };
    case 'challenge':
      return challengeResponse(host, ray);
    case 'challenge-body-only':
      return {
        status: 503,
        headers: { ...headers, 'cache-control': 'private, max-age=0, no-store' },
        body: challengePage(host, ray.split('-')[0] ?? ray),
      };
    case 'redirect':
      return { status: 301, headers: { ...headers, location: `${fault.location.replace(/\/+$/, '')}${pathWithQuery}` }, body: '' };
    case 'rate-limit':
      return {
        status: 429,
        headers: { ...headers, 'retry-after': String(fault.retryAfterSeconds), 'cache-control': 'private, max-age=0, no-store' },
        body: cloudflareErrorPage(1015, host, ray),
      };
    case 'block':
      return {
        status: 403,
        headers: { ...headers, 'cache-control': 'private, max-age=0, no-store' },
        body: cloudflareErrorPage(1020, host, ray),
      };
    case 'parked':
      return { status: 200, headers: { 'content-type': 'text/html; charset=UTF-8', server: 'nginx' }, body: parkedPage(host) };
  }
}

/** Cloudflare's managed challenge: 403 + `cf-mitigated: challenge`; `live` makes it solvable (see wall.ts). */
export function challengeResponse(host: string, ray: string, live?: LiveChallenge): SimResponse {
  return {
    status: 403,
    headers: {
      ...edgeHeaders(ray),
      'cf-mitigated': 'challenge',
      'cache-control': 'private, max-age=0, no-store',
      expires: 'Thu, 01 Jan 1970 00:00:01 GMT',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'same-origin',
      'permissions-policy':
        'accelerometer=(),autoplay=(),camera=(),clipboard-read=(),clipboard-write=(),geolocation=(),gyroscope=(),hid=(),interest-cohort=(),magnetometer=(),microphone=(),payment=(),publickey-credentials-get=(),screen-wake-lock=(),serial=(),sync-xhr=(),usb=()',
    },
    body: challengePage(host, ray.split('-')[0] ?? ray, live),
  };
}

export function methodNotAllowed(ray: string): SimResponse {
  return { status: 405, headers: { ...edgeHeaders(ray), allow: 'GET, HEAD' }, body: errorPage(405) };
}

function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding'] ?? '';
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const zeroQ = params.some((param) => /^\s*q=0(\.0+)?\s*$/.test(param));
    return (coding === 'gzip' || coding === '*') && !zeroQ;
  });
}

/** Writes the answer: gzip when the client accepts it (the real site compresses), optionally trickled. */
export function send(
  req: IncomingMessage,
  res: ServerResponse,
  response: SimResponse,
  bytesPerSecond: number | null,
  timers: TimerRegistry,
): void {
  const headers: Record<string, string> = { ...response.headers };
  const encoded = typeof response.body === 'string' ? new EncodedBody(response.body) : response.body;
  let body = encoded.utf8;
  if (body.length > 0 && acceptsGzip(req)) {
    body = encoded.gzipped;
    headers['content-encoding'] = 'gzip';
  }
  headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  if (bytesPerSecond === null) {
    res.end(body);
    return;
  }
  trickle(res, body, bytesPerSecond, timers);
}

/** Sends the body in ten slices a second, so a client sees headers at once and the body crawl in. */
function trickle(res: ServerResponse, body: Buffer, bytesPerSecond: number, timers: TimerRegistry): void {
  const sliceSize = Math.max(1, Math.round(bytesPerSecond / 10));
  // Node would hold the headers back until the first slice.
  res.flushHeaders();
  let offset = 0;
  const timer = setInterval(() => {
    const slice = body.subarray(offset, offset + sliceSize);
    offset += slice.length;
    if (offset >= body.length) {
      stop();
      res.end(slice);
    } else {
      res.write(slice);
    }
  }, 100);
  const stop = (): void => {
    clearInterval(timer);
    timers.delete(timer);
  };
  timers.add(timer);
  res.on('close', stop);
}

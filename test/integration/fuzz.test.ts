import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/catalog/endpoints/index.js';
import { rawRequest } from '../helpers/rawHttp.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// Bounded fuzzing of the public surface with malformed paths, queries, headers and bodies: no route
// may answer 5xx (or drop the connection) for a client's mistake. Deterministic: one seed, one run.

const SEED = 0x12c0ffee;
const REQUESTS = 2_000;
const CONCURRENCY = 8;

/** mulberry32: a small seeded PRNG, so a failure names a request that can be replayed. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Path parameters of the endpoint table ("/catalog/series/{slug}") are fuzzed like any segment, so
// new endpoints are covered as they are added.
const TARGETS = [
  ...endpoints.map((endpoint) => endpoint.path),
  '/api/reports',
  '/report',
  '/report/sent/{id}',
  '/',
  '/docs',
  '/openapi.json',
  '/health',
  '/health/upstream',
  '/css/site.css',
  '/js/try-it.js',
  '/admin/reports',
];

// Written as latin1, so characters past 0x7f go out as raw bytes.
const TOKENS = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%00',
  '%ff',
  '%C0%AF',
  '%2e%2e',
  '%2F',
  '%25',
  '%F0%9F%98%80',
  '..',
  '//',
  ';',
  '&',
  '=',
  '[]',
  '__proto__',
  'constructor',
  'toString',
  '+',
  ' ',
  '\t',
  '\u00ff',
  '\u0080',
  '<script>',
  '"',
  "'",
  '\\',
  '-1',
  '0',
  '1e9',
  '501',
  'NaN',
  '0x10',
  'a'.repeat(300),
  'soul land',
  'renegade-immortal',
  '',
];
const QUERY_KEYS = ['page', 'q', 'slug', 'page[]', 'q[0]', '__proto__', 'constructor[prototype]', 'category', 'from', 'endpoint', ''];
const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'POST', 'OPTIONS', 'PUT', 'DELETE', 'PATCH'];
const CONTENT_TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/json; charset=latin1',
  'application/json; charset=nope',
  'multipart/form-data',
  '*/*',
  '',
];
const ENCODINGS = ['gzip', 'deflate', 'br', 'identity', 'compress', 'gzip, gzip', '\u00ff'];
const EXTRA_HEADERS = [
  'Range: bytes=99999999-',
  'Range: bytes=abc',
  'Range: bytes=0-1,5-2',
  'If-None-Match: "x", W/',
  'If-None-Match: *',
  'X-Request-Id: \u00ff\u00ff',
  `X-Request-Id: ${'x'.repeat(500)}`,
  'Accept: text/html',
  'Accept: application/json',
  'Accept: */*;q=abc',
  'Accept-Encoding: br;q=x',
  'Access-Control-Request-Method: GET',
  'Access-Control-Request-Method: \u00ff',
  'Origin: null',
  'X-Forwarded-For: ::ffff:1.2.3.4, garbage',
  'Authorization: Bearer',
  'Authorization: Basic \u00ff',
  'Cookie: a=%zz',
  'Host: \u00ff',
];

interface FuzzedRequest {
  method: string;
  target: string;
  bytes: Buffer;
}

function fuzzedRequest(random: () => number): FuzzedRequest {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const token = () => pick(TOKENS);
  const method = pick(METHODS);
  let path = pick(TARGETS).replace(/\{\w+\}/g, () => (random() < 0.2 ? '00000000-0000-4000-8000-000000000000' : token() + token()));
  if (random() < 0.3) path += token();
  if (random() < 0.2) path = path.replace(/\/[^/]*$/, `/${token()}`);
  if (random() < 0.6) {
    const pairs = Array.from({ length: 1 + Math.floor(random() * 3) }, () => `${pick(QUERY_KEYS)}${random() < 0.9 ? '=' : ''}${token()}`);
    path += `?${pairs.join('&')}`;
  }

  const headers = ['Host: 127.0.0.1', 'Connection: close'];
  for (let extra = Math.floor(random() * 3); extra > 0; extra -= 1) headers.push(pick(EXTRA_HEADERS));
  let body = Buffer.alloc(0);
  if (method !== 'GET' && method !== 'HEAD' && random() < 0.8) {
    const kind = random();
    const json = JSON.stringify({
      category: token(),
      endpoint: token(),
      title: token(),
      description: token(),
      severity: token(),
      website: random() < 0.2 ? 'x' : '',
    });
    body =
      kind < 0.25
        ? Buffer.from(json)
        : kind < 0.4
          ? gzipSync(json).subarray(0, Math.floor(random() * 40))
          : kind < 0.6
            ? Buffer.from(`title=${token()}&description=${token()}&category=${token()}&title=${token()}`, 'latin1')
            : Buffer.from(Array.from({ length: Math.floor(random() * 200) }, () => Math.floor(random() * 256)));
    const contentType = pick(CONTENT_TYPES);
    if (contentType !== '') headers.push(`Content-Type: ${contentType}`);
    if (random() < 0.3) headers.push(`Content-Encoding: ${pick(ENCODINGS)}`);
  }
  // A declared length is either the truth or far over the limit (refused at once); a shorter body
  // than declared would only wait out the request timeout.
  headers.push(`Content-Length: ${random() < 0.05 ? '1000000000000' : body.length}`);
  const head = Buffer.from(`${method} ${path} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`, 'latin1');
  return { method, target: path, bytes: Buffer.concat([head, body]) };
}

let stack: TestStack;
let server: Server;
let port: number;

beforeAll(async () => {
  stack = await startTestStack({ env: { REPORT_RATE_LIMIT_MAX: '10000' } });
  server = stack.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await stack.close();
});

describe('fuzzing the public surface', () => {
  it(`answers ${REQUESTS} malformed requests (seed ${SEED}) without a 5xx and without dropping one`, { timeout: 120_000 }, async () => {
    const random = prng(SEED);
    const requests = Array.from({ length: REQUESTS }, () => fuzzedRequest(random));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    async function worker() {
      while (next < requests.length) {
        const { method, target, bytes } = requests[next++] as FuzzedRequest;
        const response = await rawRequest(port, bytes).catch((error: unknown) => ({ status: 0, body: String(error) }));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 0 || response.status >= 500)
          failures.push(`${method} ${JSON.stringify(target)} → ${response.status} ${response.body.slice(0, 200)}`);
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(failures).toEqual([]);
    // The fuzzing reached the routes, not only the parser: successes and each kind of refusal.
    for (const status of [200, 204, 304, 400, 404, 405, 415, 416]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
  });
});

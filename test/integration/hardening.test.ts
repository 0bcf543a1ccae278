import { readdirSync, readlinkSync, statSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { IncomingMessage, Server } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { ErrorEnvelope } from '../../src/contract/schemas.js';
import { createHttpServer } from '../../src/http/server.js';
import { SERVER_TIMEOUTS } from '../../src/config/requestLimits.js';
import { rawRequest, type RawResponse } from '../helpers/rawHttp.js';
import { startTestStack, type TestStack, noProbe } from '../helpers/testApp.js';
import { until } from '../helpers/waiting.js';

// Each client mistake that once got a 500 or an empty answer, driven over a real
// socket against the app as main.ts serves it (app.listen: its timeouts and clientError handler).

interface LogLine {
  level: number;
  msg: string;
  code?: string;
  reason?: string;
}

const PINO_ERROR = 50;
const PINO_INFO = 30;

let stack: TestStack;
let app: App;
let server: Server;
let port: number;
const logLines: LogLine[] = [];

beforeAll(async () => {
  stack = await startTestStack({ env: { REPORT_RATE_LIMIT_MAX: '10000', RATE_LIMIT_MAX: '3' } });
  // The app again, with a logger the tests read: client mistakes must never log at error level.
  const logger = pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line) as LogLine) });
  app = createApp({ config: stack.config, logger, scheduleProbe: noProbe });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await app.close();
  await stack.close();
  expect(logLines.filter((line) => line.level >= PINO_ERROR)).toEqual([]);
});

const REPORT = JSON.stringify({
  category: 'bug',
  endpoint: '/catalog/home',
  title: 'Slider kosong',
  description: 'Slider kosong sejak pagi.',
  severity: 'low',
});

/** The envelope's shape, code and request id (body and header agree); returns the envelope. */
function expectEnvelope(response: { status: number; headers: Record<string, string>; body: string }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const envelope = ErrorEnvelope.parse(JSON.parse(response.body));
  expect(envelope.error.code).toBe(code);
  expect(envelope.requestId).toBe(response.headers['x-request-id']);
  return envelope;
}

const asRaw = (response: request.Response): RawResponse => ({ status: response.status, headers: response.headers, body: response.text });

/** A POST over a raw socket: supertest would re-encode a Buffer body. */
const postReport = (path: string, body: Buffer, encoding: string, { contentType = 'application/json', accept = '*/*' } = {}) =>
  rawRequest(
    port,
    Buffer.concat([
      Buffer.from(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nContent-Encoding: ${encoding}\r\n` +
          `Accept: ${accept}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      ),
      body,
    ]),
  );

describe('corrupt or truncated compressed bodies', () => {
  const compressors = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
  const cases = Object.entries(compressors).flatMap(([encoding, compress]) => {
    const whole = compress(Buffer.from(REPORT));
    return [
      [encoding, 'truncated', whole.subarray(0, Math.floor(whole.length / 2))],
      [encoding, 'corrupt', Buffer.from('this is not compressed data at all, just text')],
    ] as const;
  });

  it.each(cases)('answers a %s body that is %s with 400 INVALID_PARAMETER naming the body', async (encoding, _kind, body) => {
    const envelope = expectEnvelope(await postReport('/api/reports', body, encoding), 400, 'INVALID_PARAMETER');
    expect(envelope.error.details).toEqual([
      { field: 'body', rule: 'complete gzip, deflate or br data', message: 'The compressed body is corrupt or cut short' },
    ]);
  });

  it('still takes a whole gzip body', async () => {
    const response = await postReport('/api/reports', gzipSync(Buffer.from(REPORT)), 'gzip');
    expect(response.status).toBe(201);
  });

  it('answers an unsupported Content-Encoding with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const envelope = expectEnvelope(await postReport('/api/reports', Buffer.from(REPORT), 'compress'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(envelope.error.message).toBe('Send the body as UTF-8, uncompressed or with Content-Encoding gzip, deflate or br.');
  });

  it('answers a corrupt form post on POST /report with the 400 page for a browser, the envelope otherwise', async () => {
    const corrupt = Buffer.from('title=not+gzip');
    const contentType = 'application/x-www-form-urlencoded';
    const page = await postReport('/report', corrupt, 'gzip', { contentType, accept: 'text/html' });
    expect(page.status).toBe(400);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<code>INVALID_PARAMETER</code>');
    expectEnvelope(await postReport('/report', corrupt, 'gzip', { contentType }), 400, 'INVALID_PARAMETER');
  });
});

describe('malformed percent-encoding in a path', () => {
  it.each(['/report/sent/%', '/report/sent/%zz', '/report/sent/%E0%A4%A'])(
    'answers GET %s with 400 INVALID_PARAMETER naming the path',
    async (path) => {
      const response = await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      const envelope = expectEnvelope(response, 400, 'INVALID_PARAMETER');
      expect(envelope.error.details).toEqual([
        { field: 'path', rule: 'percent-encoded UTF-8', message: 'The path has a "%" that is not followed by valid percent-encoded UTF-8' },
      ]);
    },
  );

  it('logs it at info with the reason, never as our failure', async () => {
    await rawRequest(port, 'GET /report/sent/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(logLines).toContainEqual(
      expect.objectContaining({ level: PINO_INFO, msg: 'client error', code: 'INVALID_PARAMETER', reason: "Failed to decode param '%zz'" }),
    );
  });

  it('answers a browser with the 400 error page', async () => {
    const response = await rawRequest(port, 'GET /report/sent/%zz HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\nConnection: close\r\n\r\n');
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

describe('an unsatisfiable Range on a static file', () => {
  it('answers 416 RANGE_NOT_SATISFIABLE with the Content-Range the file has', async () => {
    const size = statSync(new URL('../../public/css/site.css', import.meta.url)).size;
    const response = await request(app).get('/css/site.css').set('Range', 'bytes=99999999-');
    expectEnvelope(asRaw(response), 416, 'RANGE_NOT_SATISFIABLE');
    expect(response.headers['content-range']).toBe(`bytes */${size}`);
  });
});

describe('a client that goes away mid-body', () => {
  it('is one quiet info line, not INTERNAL_ERROR', async () => {
    const arrived = new Promise<IncomingMessage>((resolve) => server.once('request', resolve));
    const socket = connect(port, '127.0.0.1');
    socket.write('POST /api/reports HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"category":');
    // Hang up once the body parser reads the body (its stream flows), in the body's middle.
    const received = await arrived;
    await vi.waitFor(() => expect(received.readableFlowing).toBe(true));
    socket.destroy();
    await vi.waitFor(() =>
      expect(logLines).toContainEqual(expect.objectContaining({ level: PINO_INFO, msg: 'client error', reason: 'request aborted' })),
    );
  });
});

describe('a declared body far over the limit', () => {
  it.each(['/api/reports', '/report'])(
    'answers POST %s with Content-Length 1000000000000 and no body 413 at once, and closes',
    async (path) => {
      const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n`;
      // The client never sends the body nor closes; only the server's answer ends this.
      const response = await rawRequest(port, head);
      expectEnvelope(response, 413, 'PAYLOAD_TOO_LARGE');
      expect(response.headers.connection).toBe('close');
    },
  );

  it('serves with timeouts fit for a public API', () => {
    expect(SERVER_TIMEOUTS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      timeoutCheckEveryMs: 1_000,
    });
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([10_000, 30_000, 5_000]);
  });

  it('answers stalled headers with 408 REQUEST_TIMEOUT in the envelope', async () => {
    const quick = createHttpServer(app, pino({ level: 'silent' }), {
      headersTimeoutMs: 200,
      requestTimeoutMs: 400,
      keepAliveTimeoutMs: 200,
      timeoutCheckEveryMs: 50,
    });
    await new Promise<void>((resolve) => quick.listen(0, '127.0.0.1', resolve));
    try {
      const response = await rawRequest((quick.address() as AddressInfo).port, 'GET /catalog/home HTTP/1.1\r\nHost: x\r\n');
      const envelope = expectEnvelope(response, 408, 'REQUEST_TIMEOUT');
      expect(envelope.reportUrl).toBe('/report?endpoint=other&category=bug');
    } finally {
      quick.closeAllConnections();
      await new Promise((resolve) => quick.close(resolve));
    }
  });
});

describe('slow-header clients', () => {
  /** What each open file descriptor of the process is (`socket:[inode]` for a socket), by number. */
  const openDescriptors = () =>
    new Map(
      readdirSync('/proc/self/fd').flatMap((fd) => {
        try {
          return [[Number(fd), readlinkSync(`/proc/self/fd/${fd}`)] as const];
        } catch {
          // Closed between the listing and the look.
          return [];
        }
      }),
    );

  it('get their 408, and the server closes their file descriptors while the clients keep their own open', async () => {
    const quick = createHttpServer(app, pino({ level: 'silent' }), {
      headersTimeoutMs: 200,
      requestTimeoutMs: 400,
      keepAliveTimeoutMs: 200,
      timeoutCheckEveryMs: 50,
    });
    await new Promise<void>((resolve) => quick.listen(0, '127.0.0.1', resolve));
    // The server's side of each connection, as the file it is (its fd's link names the socket's inode).
    const served: string[] = [];
    quick.on('connection', (socket: Socket) => {
      const fd = (socket as Socket & { _handle: { fd: number } })._handle.fd;
      served.push(openDescriptors().get(fd)!);
    });
    const clients: Socket[] = [];
    try {
      const answered = Array.from({ length: 40 }, () => {
        const client = connect({ port: (quick.address() as AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
        clients.push(client);
        // Headers that never end; the client never closes its side.
        client.write('GET /catalog/home HTTP/1.1\r\nHost: x\r\n');
        return new Promise<string>((resolve) => client.once('data', (data) => resolve(data.toString('latin1').split('\r\n')[0]!)));
      });
      expect(await Promise.all(answered)).toEqual(Array.from({ length: 40 }, () => 'HTTP/1.1 408 Request Timeout'));
      expect(new Set(served).size).toBe(40);
      expect(served.every((link) => link.startsWith('socket:['))).toBe(true);
      await until(() => {
        const open = new Set(openDescriptors().values());
        return served.every((link) => !open.has(link));
      });
      expect(clients.every((client) => !client.destroyed)).toBe(true);
    } finally {
      for (const client of clients) client.destroy();
      quick.closeAllConnections();
      await new Promise((resolve) => quick.close(resolve));
    }
  });
});

describe("errors of Node's HTTP parser", () => {
  it('answers a raw non-ASCII byte in the URL with 400 in the envelope, with a request id', async () => {
    const response = await rawRequest(
      port,
      Buffer.concat([Buffer.from('GET /catalog/search?q='), Buffer.from([0xff]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]),
    );
    const envelope = expectEnvelope(response, 400, 'INVALID_PARAMETER');
    // Our own words only, never the parser's ("Parse Error: Invalid character in URL"...).
    expect(envelope.error.details).toEqual([
      {
        field: 'request',
        rule: 'well-formed HTTP',
        message:
          'The request line or a header does not follow HTTP/1.1: look for spaces or raw bytes outside ASCII in the URL, or a malformed header',
      },
    ]);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.connection).toBe('close');
  });

  it('answers a URL over 16 KB with 431 REQUEST_HEADERS_TOO_LARGE', async () => {
    const response = await rawRequest(port, `GET /catalog/search?q=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const envelope = expectEnvelope(response, 431, 'REQUEST_HEADERS_TOO_LARGE');
    expect(envelope.error.message).toBe('The request line and headers are over 16 KB. Shorten the URL or the headers.');
  });
});

describe('CORS preflight and report ids', () => {
  const preflight = () =>
    request(app)
      .options('/catalog/ongoing-series?page=2')
      .set('Origin', 'https://app.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'if-none-match, x-request-id');

  it('answers a preflight of /catalog/* with 204 and what a browser may send, without counting it', async () => {
    // The quota is 3: three preflights, then a request that still has 2 left.
    for (let sent = 0; sent < 3; sent += 1) {
      const response = await preflight();
      expect(response.status).toBe(204);
      expect(response.headers).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': 'If-None-Match, X-Request-Id, Cache-Control, Pragma',
        'access-control-max-age': '86400',
      });
      expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    const counted = await request(app).get('/catalog/genres');
    expect(counted.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('leaves an OPTIONS that is not a preflight to 405', async () => {
    expectEnvelope(asRaw(await request(app).options('/catalog/genres')), 405, 'METHOD_NOT_ALLOWED');
  });

  it('shows the confirmation page only for a report that was stored', async () => {
    const never = await request(app).get('/report/sent/00000000-0000-4000-8000-000000000000').set('Accept', 'text/html');
    expect(never.status).toBe(404);
    const stored = await request(app).post('/api/reports').set('Content-Type', 'application/json').send(REPORT);
    const page = await request(app)
      .get(`/report/sent/${(stored.body as { data: { id: string } }).data.id}`)
      .set('Accept', 'text/html');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Laporan Terkirim!');
  });
});

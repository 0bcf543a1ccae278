import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/config/requestLimits.js';
import { floodDeclaredBody, rawRequest, streamChunkedBody } from '../helpers/rawHttp.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// A chunked body is cut at the same limit as a declared one, and a request the
// report quota refuses is refused before its body is read; in both cases the connection closes.

const REPORT = {
  category: 'bug',
  endpoint: '/catalog/home',
  title: 'Slider kosong',
  description: 'Slider kosong sejak pagi.',
  severity: 'low',
};
const SLACK_BYTES = 64 * 1024;
// 2 KB every 20 ms (100 KB/s): what the client has written stays within a few chunks of what the server read.
const PACE = { chunkBytes: 2048, pauseMs: 20, maxBytes: BODY_LIMIT_BYTES + 2 * SLACK_BYTES };

/** A test stack listening on a port, started before the block's tests and closed after them. */
function listeningStack(env: Record<string, string>, prepare: (stack: TestStack) => Promise<void> = async () => undefined) {
  const running = { stack: undefined as unknown as TestStack, port: 0, sockets: [] as Socket[] };
  let server: Server;
  beforeAll(async () => {
    running.stack = await startTestStack({ env });
    server = running.stack.app.listen(0, '127.0.0.1');
    server.on('connection', (socket: Socket) => running.sockets.push(socket));
    await new Promise((resolve) => server.once('listening', resolve));
    running.port = (server.address() as AddressInfo).port;
    await prepare(running.stack);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await running.stack.close();
  });
  return running;
}

const chunkedHead = (path: string, contentType: string) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${contentType}\r\nAccept: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;

describe('a chunked request body', () => {
  const running = listeningStack({ REPORT_RATE_LIMIT_MAX: '1000' });

  it.each([
    ['/api/reports', 'application/json'],
    ['/report', 'application/x-www-form-urlencoded'],
  ])('past the limit on POST %s gets 413 before 64 KB more are read, and the connection closes', async (path, contentType) => {
    const { response, sentBeforeAnswer, closedByServer } = await streamChunkedBody(running.port, chunkedHead(path, contentType), PACE);
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toMatchObject({ status: 'error', error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(response.headers['connection']).toBe('close');
    expect(sentBeforeAnswer).toBeGreaterThan(BODY_LIMIT_BYTES);
    expect(sentBeforeAnswer).toBeLessThan(BODY_LIMIT_BYTES + SLACK_BYTES);
    expect(closedByServer).toBe(true);
  });

  it('within the limit is read as before', async () => {
    const body = JSON.stringify(REPORT);
    const chunks = [body.slice(0, 40), body.slice(40)].map((part) => `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`).join('');
    const head = chunkedHead('/api/reports', 'application/json').replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n');
    const created = await rawRequest(running.port, `${head}${chunks}0\r\n\r\n`);
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body)).toMatchObject({ status: 'success', data: { id: expect.any(String) } });
  });
});

describe('a request the report quota refuses', () => {
  const running = listeningStack({ REPORT_RATE_LIMIT_MAX: '1' }, async (stack) => {
    expect((await request(stack.app).post('/api/reports').send(REPORT)).status).toBe(201);
  });

  it.each([
    ['/api/reports', 'application/json'],
    ['/report', 'application/x-www-form-urlencoded'],
  ])('on POST %s gets 429 before its body is read, and the connection closes', async (path, contentType) => {
    // The body never ends: only an answer given before reading it can arrive.
    const { response, sentBeforeAnswer, closedByServer } = await streamChunkedBody(running.port, chunkedHead(path, contentType), PACE);
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toMatch(/^\d+$/);
    expect(response.headers['connection']).toBe('close');
    expect(sentBeforeAnswer).toBeLessThan(SLACK_BYTES);
    expect(closedByServer).toBe(true);
  });
});

// A client that declares a huge body and sends it as fast as the connection takes it: the service
// answers from the head alone, then closes; what it read is counted on its own side of the socket.
const HUGE_BODY_HEAD = (method: string, path: string) =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000000000\r\n\r\n`;
const READ_MAX_BYTES = 1024 * 1024;
const FLOOD_MS = 2_000;

async function expectClosedAfterAnswer(running: { port: number; sockets: Socket[] }, method: string, path: string, status: number) {
  const before = running.sockets.length;
  const { response, closedAfterAnswerMs } = await floodDeclaredBody(running.port, HUGE_BODY_HEAD(method, path), FLOOD_MS);
  expect(response.status).toBe(status);
  expect(response.headers['connection']).toBe('close');
  expect(closedAfterAnswerMs).not.toBeNull();
  expect(closedAfterAnswerMs!).toBeLessThan(1_000);
  const socket = running.sockets[before]!;
  expect(running.sockets.length).toBe(before + 1);
  expect(socket.destroyed).toBe(true);
  expect(socket.bytesRead).toBeLessThan(READ_MAX_BYTES);
}

describe('a 100 GB Content-Length sent to an API path', () => {
  const running = listeningStack({}, async (stack) => {
    expect((await request(stack.app).get('/catalog/home')).status).toBe(200);
  });

  it.each([
    ['GET', '/catalog/home', 200],
    ['GET', '/catalog/search?page=0', 400],
    ['GET', '/catalog/no-such-thing', 404],
    ['POST', '/catalog/home', 405],
    ['GET', '/feeds/latest.json', 200],
    ['GET', '/export/catalog.json', 503],
  ])('%s %s is answered %i, then closed within a second, under 1 MB read', async (method, path, status) => {
    await expectClosedAfterAnswer(running, method, path, status);
  });
});

describe('a 100 GB Content-Length sent to an API path past the quota', () => {
  const running = listeningStack({ RATE_LIMIT_MAX: '1' }, async (stack) => {
    expect((await request(stack.app).get('/catalog/genres')).status).toBe(200);
  });

  it.each(['/catalog/home', '/feeds/latest.json', '/export/catalog.json'])(
    'GET %s is answered 429, then closed within a second, under 1 MB read',
    async (path) => {
      await expectClosedAfterAnswer(running, 'GET', path, 429);
    },
  );
});

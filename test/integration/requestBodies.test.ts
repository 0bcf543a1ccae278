import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/config/requestLimits.js';
import { rawRequest, streamChunkedBody } from '../helpers/rawHttp.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// A chunked body is cut at the same limit as a declared one, and a request the
// report quota refuses is refused before its body is read; in both cases the connection closes.

const REPORT = { category: 'bug', endpoint: '/catalog/home', title: 'Slider kosong', description: 'Slider kosong sejak pagi.', severity: 'low' };
const SLACK_BYTES = 64 * 1024;
// 2 KB every 20 ms (100 KB/s): what the client has written stays within a few chunks of what the server read.
const PACE = { chunkBytes: 2048, pauseMs: 20, maxBytes: BODY_LIMIT_BYTES + 2 * SLACK_BYTES };

/** A test stack listening on a port, started before the block's tests and closed after them. */
function listeningStack(env: Record<string, string>, prepare: (stack: TestStack) => Promise<void> = async () => undefined) {
  const running = { stack: undefined as unknown as TestStack, port: 0 };
  let server: Server;
  beforeAll(async () => {
    running.stack = await startTestStack({ env });
    server = running.stack.app.listen(0, '127.0.0.1');
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

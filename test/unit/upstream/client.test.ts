import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/config/logger.js';
import { createFileOrigin } from '../../../src/stores/origin/file.js';
import { createUpstreamClient, type UpstreamClientOptions } from '../../../src/upstream/client.js';
import { shortRetries, unshared } from '../../helpers/upstreamClient.js';
import { untilOnRealTimers } from '../../helpers/waiting.js';
import {
  UpstreamBadResponseError,
  UpstreamBlockedError,
  UpstreamMovedError,
  UpstreamNotFoundError,
  UpstreamTimeoutError,
} from '../../../src/upstream/errors.js';
import { pageText } from '../../../src/upstream/siteLinks.js';

type Handler = Parameters<typeof createServer>[1];
let server: Server | undefined;

async function serve(handler: NonNullable<Handler>): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A WordPress page: anything else is a suspect answer (a parked domain). */
const wordpress = (text: string) => `<html><head><link rel="stylesheet" href="/wp-content/themes/x.css"></head><body>${text}</body></html>`;

function clientFor(origin: string, options: Pick<UpstreamClientOptions, 'timeoutMs' | 'connections'>) {
  return createUpstreamClient({
    origins: [origin],
    originFile: createFileOrigin(mkdtempSync(join(tmpdir(), 'upstream-client-')), createLogger('silent')),
    logger: createLogger('silent'),
    shared: unshared(),
    ...shortRetries(),
    ...options,
  });
}

afterEach(async () => {
  vi.useRealTimers();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('createUpstreamClient', () => {
  it('sends the headers of a desktop Chrome and decodes a gzip body', async () => {
    let seen: IncomingHttpHeaders = {};
    const origin = await serve((req, res) => {
      seen = req.headers;
      res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8', 'content-encoding': 'gzip' });
      res.end(gzipSync(wordpress('Halo — dunia’s')));
    });
    const page = await clientFor(origin, { timeoutMs: 2000 }).fetchPage('/ongoing/');
    expect(page).toMatchObject({ url: `${origin}/ongoing/`, status: 200, attempts: 1, servedBy: origin });
    expect(pageText(page)).toBe(wordpress('Halo — dunia’s'));
    expect(pageText(page)).toContain('Halo — dunia’s');
    expect(seen['user-agent']).toMatch(/^Mozilla\/5\.0 \(Windows NT 10\.0; Win64; x64\) .* Chrome\/\d+/);
    expect(seen['accept']).toMatch(/^text\/html,application\/xhtml\+xml/);
    expect(seen['accept-language']).toMatch(/^id-ID/);
    expect(seen['accept-encoding']).toBe('gzip, deflate, br');
    expect(seen['sec-fetch-mode']).toBe('navigate');
    expect(seen['sec-fetch-dest']).toBe('document');
    expect(seen['connection']).toBe('keep-alive');
  });

  it('follows a same-origin redirect and reports the final URL', async () => {
    const origin = await serve((req, res) => {
      if (req.url === '/page/1/') res.writeHead(301, { location: '/' }).end();
      else res.writeHead(200).end(wordpress('home'));
    });
    const page = await clientFor(origin, { timeoutMs: 2000 }).fetchPage('/page/1/');
    expect(page.url).toBe(`${origin}/`);
    expect(pageText(page)).toBe(wordpress('home'));
  });

  it('does not follow a redirect to another origin', async () => {
    const origin = await serve((_req, res) => res.writeHead(301, { location: 'https://anichin.new/' }).end());
    const failure = clientFor(origin, { timeoutMs: 2000 }).fetchPage('/');
    await expect(failure).rejects.toBeInstanceOf(UpstreamMovedError);
    await expect(failure).rejects.toMatchObject({ location: 'https://anichin.new/' });
  });

  it('retries 5xx and network errors at most twice', async () => {
    let calls = 0;
    const origin = await serve((req, res) => {
      calls++;
      if (calls === 1) req.socket.destroy();
      else res.writeHead(502).end('bad gateway');
    });
    const failure = clientFor(origin, { timeoutMs: 5000 }).fetchPage('/');
    await expect(failure).rejects.toBeInstanceOf(UpstreamBadResponseError);
    await expect(failure).rejects.toMatchObject({ status: 502 });
    expect(calls).toBe(3);
  });

  it.each([
    ["the theme's 404", 404, wordpress('<h1>Error 404</h1>'), UpstreamNotFoundError],
    ['a bare 404', 404, 'no', UpstreamBadResponseError],
    ['a 403', 403, 'no', UpstreamBadResponseError],
    ['a 429', 429, 'no', UpstreamBlockedError],
  ])('does not retry %s', async (_name, status, body, errorType) => {
    let calls = 0;
    const origin = await serve((_req, res) => {
      calls++;
      res.writeHead(status, { 'retry-after': '42' }).end(body);
    });
    await expect(clientFor(origin, { timeoutMs: 2000 }).fetchPage('/')).rejects.toBeInstanceOf(errorType);
    expect(calls).toBe(1);
  });

  it('passes the upstream Retry-After of a rate limit on', async () => {
    const origin = await serve((_req, res) => res.writeHead(429, { 'retry-after': '42' }).end());
    await expect(clientFor(origin, { timeoutMs: 2000 }).fetchPage('/')).rejects.toMatchObject({ retryAfterSeconds: 42 });
  });

  it('gives up at the page deadline, retries included', async () => {
    let calls = 0;
    let cutOff = 0;
    const origin = await serve((_req, res) => {
      calls++;
      res.on('close', () => {
        if (!res.writableEnded) cutOff++;
      });
    });
    // The deadline runs on the faked clock, moved by hand; the request itself goes over a real socket.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let outcome: unknown;
    clientFor(origin, { timeoutMs: 400 })
      .fetchPage('/')
      .then(
        () => (outcome = 'answered'),
        (error: unknown) => (outcome = error),
      );
    await untilOnRealTimers(() => calls === 1);
    await vi.advanceTimersByTimeAsync(399);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    // The page deadline's own error at 400 ms, the one attempt cut off by the client, and no retry.
    expect(outcome).toBeInstanceOf(UpstreamTimeoutError);
    expect((outcome as Error).message).toBe('No answer from the upstream within 400 ms');
    await untilOnRealTimers(() => cutOff === 1);
    expect(calls).toBe(1);
  });

  it('keeps at most `turns` requests in flight to one host, the others waiting their turn', async () => {
    let inFlight = 0;
    let peak = 0;
    const origin = await serve((_req, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200).end(wordpress('ok'));
      }, 50);
    });
    const client = clientFor(origin, { timeoutMs: 5000, connections: { turns: 2 } });
    const pages = await Promise.all(Array.from({ length: 8 }, (_, i) => client.fetchPage(`/p${i}`)));
    expect(pages.map(pageText)).toEqual(Array(8).fill(wordpress('ok')));
    expect(peak).toBe(2);
  });
});

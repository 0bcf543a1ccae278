import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import axios from 'axios';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/config/logger.js';
import { createFileOrigin } from '../../src/stores/origin/file.js';
import { createFlareSolverrSolver } from '../../src/upstream/challenge/flaresolverr.js';
import {
  UpstreamBadResponseError,
  UpstreamBlockedError,
  UpstreamSuspectPageError,
  UpstreamTimeoutError,
  UpstreamUnavailableError,
} from '../../src/upstream/errors.js';
import { tempDataDir, testClient } from '../helpers/upstreamClient.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../simulator/server.js';
import { noProbe } from '../helpers/testApp.js';
import { until } from '../helpers/waiting.js';
import { pageText } from '../../src/upstream/siteLinks.js';

// Breaker, rate-limit pause, firewall block, mirror failover with validation and persistence,
// the page deadline, and what /health/upstream and /metrics show. No browser is involved.

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

async function site(options: SimulatorOptions = {}): Promise<Simulator> {
  const simulator = await startSimulator(options);
  opened.push(simulator);
  return simulator;
}

/** A primary on 127.0.0.1 and a mirror on 127.0.0.2: cookies ignore ports, so only another host isolates them. */
async function primaryAndMirror() {
  return { primary: await site(), mirror: await site({ host: '127.0.0.2' }) };
}

const plainPage = (url: string, headers: Record<string, string>) => axios.get<string>(url, { headers, validateStatus: () => true });
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('circuit breaker', () => {
  it('opens after repeated failures, answers at once while open, and closes after a good probe', async () => {
    const simulator = await site();
    const { client, metrics } = testClient([simulator.origin], { breakerThreshold: 3, breakerCooldownMs: 400, maxRetries: 0 });
    simulator.setFaults([{ kind: 'status', status: 502 }]);
    for (let i = 0; i < 3; i++) expect(await rejection(client.fetchPage('/'))).toBeInstanceOf(UpstreamBadResponseError);
    expect(simulator.hitCount()).toBe(3);

    // Open: refused before any timer of this turn fires, so without waiting on the network.
    const refusal = rejection(client.fetchPage('/ongoing/'));
    const first = await Promise.race([refusal.then(() => 'refused'), new Promise((resolve) => setTimeout(() => resolve('a timer'), 0))]);
    expect(first).toBe('refused');
    const refused = await refusal;
    expect(refused).toBeInstanceOf(UpstreamUnavailableError);
    expect(refused).toMatchObject({ retryAfterSeconds: 1 });
    expect(simulator.hitCount()).toBe(3);
    expect(client.status()).toMatchObject({ health: 'down', breaker: { state: 'open', retryAfterSeconds: 1 } });
    expect(await metrics.registry.getSingleMetricAsString('upstream_breaker_state')).toContain(
      `upstream_breaker_state{origin="${simulator.origin}"} 2`,
    );

    simulator.clearFaults();
    await sleep(450);
    expect((await client.fetchPage('/ongoing/')).status).toBe(200);
    expect(simulator.hitCount()).toBe(4);
    expect(client.status()).toMatchObject({ health: 'ok', breaker: { state: 'closed', retryAfterSeconds: null } });
  });

  it('does not count a 404 or a missing solver against the upstream', async () => {
    const simulator = await site();
    const { client } = testClient([simulator.origin], { breakerThreshold: 2 });
    for (let i = 0; i < 3; i++) await rejection(client.fetchPage('/no-such-page/'));
    simulator.setFaults([{ kind: 'challenge' }]);
    for (let i = 0; i < 3; i++)
      expect(await rejection(client.fetchPage('/'))).toMatchObject({ reason: 'no-solver', retryAfterSeconds: 60 });
    expect(client.status().breaker.state).toBe('closed');
  });
});

describe('upstream rate limits and firewall blocks', () => {
  it('pauses the host for Retry-After after a 429, sending nothing meanwhile, then goes on', async () => {
    const simulator = await site();
    // The pause (2 s, the shortest a whole-second Retry-After leaves room in) outlasts a request's
    // deadline (1.2 s) by far more than a slow step takes.
    const { client } = testClient([simulator.origin], { timeoutMs: 1200 });
    simulator.setFaults([{ kind: 'rate-limit', retryAfterSeconds: 2, times: 1 }]);
    expect(await rejection(client.fetchPage('/'))).toMatchObject({
      name: 'UpstreamBlockedError',
      reason: 'rate-limited',
      retryAfterSeconds: 2,
    });
    expect(simulator.hitCount()).toBe(1);
    // The pause outlasts this request's deadline: refused at once with the whole seconds left, nothing sent.
    const refused = await rejection(client.fetchPage('/ongoing/'));
    expect(refused).toMatchObject({ reason: 'rate-limited' });
    expect([1, 2]).toContain((refused as UpstreamBlockedError).retryAfterSeconds);
    expect(simulator.hitCount()).toBe(1);
    await sleep(1300);
    // Now the pause ends inside the deadline: the request waits it out, then goes through. The
    // site's own record says it was asked nothing before the pause it asked for was over.
    expect((await client.fetchPage('/ongoing/')).status).toBe(200);
    expect(simulator.hits.map((hit) => hit.path)).toEqual(['/', '/ongoing/']);
    const [told, resumed] = simulator.hits;
    expect(resumed!.at - told!.at).toBeGreaterThanOrEqual(2000);
  });

  it('never retries a 1020 firewall block', async () => {
    const simulator = await site();
    const { client } = testClient([simulator.origin]);
    simulator.setFaults([{ kind: 'block' }]);
    const failure = await rejection(client.fetchPage('/'));
    expect(failure).toBeInstanceOf(UpstreamBlockedError);
    expect(failure).toMatchObject({ reason: 'firewall', retryAfterSeconds: 300 });
    expect(simulator.hitCount()).toBe(1);
  });
});

describe('the page deadline', () => {
  it.each([
    ['a hang', { kind: 'hang' } as const],
    ['a trickling body', { kind: 'trickle', bytesPerSecond: 2000 } as const],
    ['slow headers', { kind: 'latency', ms: 5000 } as const],
  ])('holds for %s', async (_name, fault) => {
    const simulator = await site();
    const { client } = testClient([simulator.origin], { timeoutMs: 400 });
    simulator.setFaults([fault]);
    const outcome = rejection(client.fetchPage('/ongoing/'));
    // The deadline (400 ms) ends the fetch long before the fault would have let it finish (the
    // slow headers come after 5 s; the hang and the trickle never end within the test).
    const first = await Promise.race([
      outcome.then(() => 'deadline'),
      new Promise((resolve) => setTimeout(() => resolve('the fault'), 4_000)),
    ]);
    expect(first).toBe('deadline');
    const failure = await outcome;
    expect(failure).toBeInstanceOf(UpstreamTimeoutError);
    // The page's own deadline ended it, not one of the steps inside it.
    expect((failure as Error).message).toBe('No answer from the upstream within 400 ms');
    // One attempt: a timeout is not retried within the same deadline.
    expect(simulator.hitCount()).toBe(1);
  });
});

describe('mirror failover', () => {
  it('fails over to the next origin when the first keeps failing, validates it, adopts it and persists the choice', async () => {
    const { primary, mirror } = await primaryAndMirror();
    const dataDir = tempDataDir();
    const { client } = testClient([primary.origin, mirror.origin], {
      originFile: createFileOrigin(dataDir, createLogger('silent')),
      breakerThreshold: 2,
      maxRetries: 0,
    });
    primary.setFaults([{ kind: 'status', status: 522 }]);
    await rejection(client.fetchPage('/ongoing/'));
    const page = await client.fetchPage('/ongoing/');
    expect(page.url).toBe(`${mirror.origin}/ongoing/`);
    // Validated on its home page first, then asked for the page itself.
    expect(mirror.hits.map((hit) => hit.path)).toEqual(['/', '/ongoing/']);
    expect(pageText(page)).toContain(`href="${mirror.origin}/`);
    expect(pageText(page)).not.toContain(primary.origin);
    expect(client.status()).toMatchObject({
      origin: mirror.origin,
      origins: [
        { origin: primary.origin, setAside: 'keeps failing (breaker open)' },
        { origin: mirror.origin, setAside: null },
      ],
    });
    const persisted = JSON.parse(readFileSync(join(dataDir, 'upstream-origin.json'), 'utf8'));
    expect(persisted).toMatchObject({ origin: mirror.origin, movedFrom: null });

    // A restart starts on the adopted mirror.
    const restarted = testClient([primary.origin, mirror.origin], { originFile: createFileOrigin(dataDir, createLogger('silent')) }).client;
    expect(restarted.origin).toBe(mirror.origin);
    expect((await restarted.fetchPage('/')).url).toBe(`${mirror.origin}/`);
  });

  it('follows a domain move: validates the redirect target and adopts it', async () => {
    const { primary, mirror } = await primaryAndMirror();
    const dataDir = tempDataDir();
    const { client } = testClient([primary.origin], { originFile: createFileOrigin(dataDir, createLogger('silent')) });
    primary.setFaults([{ kind: 'redirect', location: mirror.origin }]);
    const page = await client.fetchPage('/ongoing/page/2/');
    expect(page.url).toBe(`${mirror.origin}/ongoing/page/2/`);
    expect(client.origin).toBe(mirror.origin);
    expect(JSON.parse(readFileSync(join(dataDir, 'upstream-origin.json'), 'utf8'))).toMatchObject({
      origin: mirror.origin,
      movedFrom: primary.origin,
    });
    expect(testClient([primary.origin], { originFile: createFileOrigin(dataDir, createLogger('silent')) }).client.origin).toBe(
      mirror.origin,
    );
    // The configured list no longer naming the old origin drops the persisted choice.
    expect(testClient(['https://other.example'], { originFile: createFileOrigin(dataDir, createLogger('silent')) }).client.origin).toBe(
      'https://other.example',
    );
  });

  it('sets aside an origin that answers a parked page and moves on', async () => {
    const { primary, mirror } = await primaryAndMirror();
    const { client } = testClient([primary.origin, mirror.origin]);
    primary.setFaults([{ kind: 'parked' }]);
    expect((await client.fetchPage('/')).url).toBe(`${mirror.origin}/`);
    expect(client.status().origins[0]).toEqual({ origin: primary.origin, setAside: 'answers pages that are not the catalog' });
  });

  it('refuses a candidate whose home page is not the theme, and keeps the error honest', async () => {
    const { primary, mirror } = await primaryAndMirror();
    const { client } = testClient([primary.origin, mirror.origin]);
    primary.setFaults([{ kind: 'parked' }]);
    mirror.setFaults([{ kind: 'layout-change' }]);
    expect(await rejection(client.fetchPage('/'))).toBeInstanceOf(UpstreamSuspectPageError);
    expect(client.origin).toBe(primary.origin);
    expect(client.status().origins[1]).toEqual({ origin: mirror.origin, setAside: 'its home page does not look like the catalog' });
  });

  it('sets aside a candidate whose home page fails with why it failed, not as a page of something else', async () => {
    const { primary, mirror } = await primaryAndMirror();
    const { client } = testClient([primary.origin, mirror.origin], { maxRetries: 0 });
    primary.setFaults([{ kind: 'parked' }]);
    mirror.setFaults([{ kind: 'status', status: 503 }]);
    await rejection(client.fetchPage('/'));
    expect(client.origin).toBe(primary.origin);
    const { setAside } = client.status().origins[1]!;
    expect(setAside).toMatch(/^its home page could not be fetched: /);
    expect(setAside).toContain('503');
  });

  it('goes back to an earlier origin once it answers like the catalog again', async () => {
    const { primary, mirror } = await primaryAndMirror();
    const { client } = testClient([primary.origin, mirror.origin], { originRecheckMs: 300 });
    primary.setFaults([{ kind: 'parked' }]);
    await client.fetchPage('/');
    expect(client.origin).toBe(mirror.origin);
    primary.clearFaults();
    await sleep(350);
    // This request still goes to the mirror; it starts the recheck of the primary in the background.
    expect((await client.fetchPage('/ongoing/')).url).toBe(`${mirror.origin}/ongoing/`);
    // The recheck runs in the background: until it has fetched the primary's home page and adopted it.
    await until(() => client.origin === primary.origin);
    expect(client.origin).toBe(primary.origin);
    expect((await client.fetchPage('/ongoing/')).url).toBe(`${primary.origin}/ongoing/`);
  });
});

describe('a FlareSolverr-compatible solver', () => {
  it('maps its cookies and User-Agent, and fetches through it when the handed-over cookie is refused', async () => {
    const simulator = await site({ wall: {} });
    const browserAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
    const reported = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 Edited';
    const requests: unknown[] = [];
    // A stand-in for FlareSolverr on our egress IP: it earns the cookie for browserAgent but reports
    // another User-Agent (FlareSolverr edits the UA it returns), so the hand-off is refused; its
    // own requests (returnOnlyCookies: false) carry the right pair and get the page.
    const stub: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        // A failure here is an unhandled rejection, which vitest reports as this test's error.
        void (async () => {
          const command = JSON.parse(body) as { url: string; returnOnlyCookies: boolean };
          requests.push(command);
          const value = simulator.mintClearance('127.0.0.1', browserAgent);
          const cookie = {
            name: 'cf_clearance',
            value,
            domain: '127.0.0.1',
            path: '/',
            expires: Date.now() / 1000 + 1800,
            httpOnly: true,
            secure: false,
          };
          const page = command.returnOnlyCookies
            ? null
            : await plainPage(command.url, { cookie: `cf_clearance=${value}`, 'user-agent': browserAgent });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              status: 'ok',
              solution: { url: command.url, status: page?.status ?? 200, userAgent: reported, cookies: [cookie], response: page?.data },
            }),
          );
        })();
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    opened.push({ close: () => new Promise((resolve) => stub.close(() => resolve())) });
    const solver = createFlareSolverrSolver({ url: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`, timeoutMs: 5000 });
    const { client } = testClient([simulator.origin], { solver, timeoutMs: 5000 });

    const page = await client.fetchPage('/ongoing/');
    expect(page.status).toBe(200);
    expect(pageText(page)).toContain('class="listupd');
    expect((await client.fetchPage('/')).status).toBe(200);
    expect(requests).toEqual([
      { cmd: 'request.get', url: `${simulator.origin}/ongoing/`, maxTimeout: 5000, returnOnlyCookies: true },
      { cmd: 'request.get', url: `${simulator.origin}/ongoing/`, maxTimeout: 5000, returnOnlyCookies: false },
      { cmd: 'request.get', url: `${simulator.origin}/`, maxTimeout: 5000, returnOnlyCookies: false },
    ]);
    expect(client.status()).toMatchObject({
      challenges: 2,
      solves: { ok: 1, failed: 0 },
      solver: { kind: 'flaresolverr', available: true },
      browserTransport: [simulator.origin],
    });
  });
});

describe('/health/upstream and /metrics', () => {
  it('show the current origin, the breaker, the last success and failure, and the fetch verdicts', async () => {
    const simulator = await site();
    const config = loadConfig({
      UPSTREAM_BASE_URLS: simulator.origin,
      DATA_DIR: tempDataDir(),
      LOG_LEVEL: 'silent',
      SOLVER: 'off',
      CRAWL_ENABLED: 'false',
    });
    const { client, metrics } = testClient(config.UPSTREAM_BASE_URLS, { breakerThreshold: 2, breakerCooldownMs: 60_000, maxRetries: 0 });
    const app = createApp({ config, logger: createLogger('silent'), upstream: client, metrics, scheduleProbe: noProbe });

    const fresh = await request(app).get('/health/upstream');
    expect(fresh.status).toBe(200);
    expect(fresh.headers['cache-control']).toBe('no-store');
    expect(fresh.body).toEqual({
      health: 'ok',
      origin: simulator.origin,
      origins: [{ origin: simulator.origin, setAside: null }],
      breaker: { state: 'closed', retryAfterSeconds: null },
      lastSuccess: null,
      lastFailure: null,
      challenges: 0,
      solves: { ok: 0, failed: 0, lastDurationMs: null },
      solver: { kind: 'off', available: false },
      browserTransport: [],
      paths: { origin: simulator.origin, series: null, list: null },
      redis: 'off',
    });

    await client.fetchPage('/ongoing/');
    simulator.setFaults([{ kind: 'status', status: 500 }]);
    await rejection(client.fetchPage('/'));
    await rejection(client.fetchPage('/'));
    const down = (await request(app).get('/health/upstream')).body;
    expect(down).toMatchObject({
      health: 'down',
      breaker: { state: 'open', retryAfterSeconds: 60 },
      lastSuccess: { url: `${simulator.origin}/ongoing/` },
      lastFailure: { url: `${simulator.origin}/`, reason: 'The upstream answered HTTP 500' },
    });
    expect(Date.parse(down.lastFailure.at)).toBeGreaterThanOrEqual(Date.parse(down.lastSuccess.at));

    const landing = await request(app).get('/').set('Accept', 'text/html');
    expect(landing.status).toBe(200);
    expect(landing.text).toContain('Status situs sumber');
    expect(landing.text).toContain('<strong>Sedang tidak tersedia</strong>');
    expect(landing.text).toContain(`sumber saat ini: <code>${simulator.origin}</code>`);
    expect(landing.text).toContain('Tantangan anti-bot: 0 kali, berhasil dilewati 0, gagal 0 (tanpa solver)');

    const scrape = await request(app).get('/metrics');
    expect(scrape.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(scrape.text).toContain(`upstream_fetches_total{origin="${simulator.origin}",verdict="ok"} 1`);
    expect(scrape.text).toContain(`upstream_fetches_total{origin="${simulator.origin}",verdict="upstream-error"} 2`);
    expect(scrape.text).toContain(`upstream_breaker_state{origin="${simulator.origin}"} 2`);
    expect(scrape.text).toContain(`upstream_current_origin{origin="${simulator.origin}"} 1`);
    expect(scrape.text).toContain('# TYPE cache_lookups_total counter');
    expect(scrape.text).toContain('http_requests_total{route="/health/upstream",method="GET",status="200"} 2');
    expect(scrape.text).toContain('http_requests_total{route="/",method="GET",status="200"} 1');
    expect(scrape.text).toMatch(/http_request_duration_seconds_count\{route="\/health\/upstream",method="GET",status="200"\} 2/);
  });
});

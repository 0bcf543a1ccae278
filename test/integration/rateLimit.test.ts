import type { Server } from 'node:http';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorEnvelope } from '../../src/contract/schemas.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

let stack: TestStack | undefined;
let server: Server | undefined;

afterEach(async () => {
  vi.useRealTimers();
  server?.close();
  server = undefined;
  await stack?.close();
  stack = undefined;
});

/** One listening server, so that every request of a test comes from the same loopback client. */
async function startLimited(env: Record<string, string>) {
  stack = await startTestStack({ env });
  server = stack.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  return request(server);
}

describe('the per-IP quota on /catalog/*', () => {
  it('lets 50 requests pass, then answers 429 with the headers and the envelope', async () => {
    const api = await startLimited({ RATE_LIMIT_MAX: '50' });
    const startedMs = Date.now();
    for (let i = 1; i <= 50; i++) {
      const response = await api.get('/catalog/genres');
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('50');
      expect(response.headers['x-ratelimit-remaining']).toBe(String(50 - i));
    }
    const refused = await api.get('/catalog/genres');
    expect(refused.status).toBe(429);
    expect(refused.headers['x-ratelimit-limit']).toBe('50');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // The window opened with the first request: it resets one hour after that, in Unix seconds.
    const reset = Number(refused.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThanOrEqual(Math.floor((startedMs + 3_600_000) / 1000));
    expect(reset).toBeLessThanOrEqual(Math.ceil((Date.now() + 3_600_000) / 1000));
    // The whole seconds left of that window when it was refused.
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor((startedMs + 3_600_000 - Date.now()) / 1000));
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // The IETF RateLimit headers are left out on purpose: they would double the limiter's cost.
    expect(refused.headers['ratelimit-policy']).toBeUndefined();
    const body = ErrorEnvelope.parse(refused.body);
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.error.message).toBe(
      `You have used all 50 API requests of this window. Try again in ${retryAfter} seconds, when it resets.`,
    );
    expect(body.reportUrl).toBe('/report?endpoint=%2Fcatalog%2Fgenres&category=other');
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    // One upstream fetch: the other 49 were cache hits, and the refused request went nowhere.
    expect(stack!.simulator.hitCount()).toBe(1);
  });

  it('resets by itself when the window ends', async () => {
    const api = await startLimited({ RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_S: '1' });
    // The window is read off Date: held still, the three requests fall in one window however long
    // the first one's upstream fetch takes; then it is moved past the window's end.
    vi.useFakeTimers({ toFake: ['Date'] });
    expect((await api.get('/catalog/genres')).status).toBe(200);
    expect((await api.get('/catalog/genres')).status).toBe(200);
    const refused = await api.get('/catalog/genres');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    vi.advanceTimersByTime(999);
    expect((await api.get('/catalog/genres')).status).toBe(429);
    vi.advanceTimersByTime(1);
    const again = await api.get('/catalog/genres');
    expect(again.status).toBe(200);
    expect(again.headers['x-ratelimit-remaining']).toBe('1');
  });

  it('lets exactly 50 of 200 simultaneous requests from one address through', async () => {
    const api = await startLimited({ RATE_LIMIT_MAX: '50' });
    const responses = await Promise.all(Array.from({ length: 200 }, () => api.get('/catalog/genres')));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 429)).toHaveLength(150);
  });

  it('counts errors too: a 400 uses the quota like a 200', async () => {
    const api = await startLimited({ RATE_LIMIT_MAX: '2' });
    expect((await api.get('/catalog/home?page=0')).status).toBe(400);
    expect((await api.get('/catalog/nothing')).status).toBe(404);
    expect((await api.get('/catalog/genres')).status).toBe(429);
  });

  it('never counts pages, /health or unknown non-API routes', async () => {
    const api = await startLimited({ RATE_LIMIT_MAX: '2' });
    for (let i = 0; i < 5; i++) {
      expect((await api.get('/health')).status).toBe(200);
      expect((await api.get('/nothing')).status).toBe(404);
    }
    const response = await api.get('/catalog/genres');
    expect(response.status).toBe(200);
    expect(response.headers['x-ratelimit-remaining']).toBe('1');
    expect((await api.get('/health')).headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('ignores a forged X-Forwarded-For when no proxy is trusted', async () => {
    const api = await startLimited({ RATE_LIMIT_MAX: '3' });
    for (let i = 0; i < 3; i++) {
      expect((await api.get('/catalog/genres').set('X-Forwarded-For', `198.51.100.${i}`)).status).toBe(200);
    }
    const forged = await api.get('/catalog/genres').set('X-Forwarded-For', '198.51.100.99');
    expect(forged.status).toBe(429);
  });

  it('behind one trusted proxy (TRUST_PROXY=1) counts clients apart by the address the proxy saw', async () => {
    const api = await startLimited({ RATE_LIMIT_MAX: '2', TRUST_PROXY: '1' });
    const asClient = (forwardedFor: string) => api.get('/catalog/genres').set('X-Forwarded-For', forwardedFor);
    expect((await asClient('203.0.113.7')).status).toBe(200);
    // Entries the client wrote itself, left of the one our proxy appended, buy nothing.
    expect((await asClient('10.9.9.9, 203.0.113.7')).status).toBe(200);
    expect((await asClient('10.8.8.8, 203.0.113.7')).status).toBe(429);
    // A second client behind the same proxy has its own quota.
    const other = await asClient('203.0.113.8');
    expect(other.status).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe('1');
  });

  it('groups IPv6 clients by their /56, so rotating addresses inside it buys nothing', async () => {
    const api = await startLimited({ RATE_LIMIT_MAX: '2', TRUST_PROXY: '1' });
    const asClient = (address: string) => api.get('/catalog/genres').set('X-Forwarded-For', address);
    expect((await asClient('2001:db8:1:200::1')).status).toBe(200);
    expect((await asClient('2001:db8:1:2ff:abcd::2')).status).toBe(200);
    expect((await asClient('2001:db8:1:200::ffff')).status).toBe(429);
    expect((await asClient('2001:db8:2::1')).status).toBe(200);
  });

  it('keeps the report quota apart from the API quota, both ways', async () => {
    const api = await startLimited({ RATE_LIMIT_MAX: '2', REPORT_RATE_LIMIT_MAX: '2' });
    const report = {
      category: 'bug',
      endpoint: '/catalog/genres',
      title: 'Genre hilang',
      description: 'Genre Action tidak ada.',
      severity: 'low',
    };
    expect((await api.get('/catalog/genres')).headers['x-ratelimit-remaining']).toBe('1');
    // The API request did not use the report quota: both reports pass, the third is refused.
    expect((await api.post('/api/reports').send(report)).status).toBe(201);
    expect((await api.post('/api/reports').send(report)).status).toBe(201);
    const refused = await api.post('/api/reports').send(report);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^You have used all 2 reports of this window/);
    // The three report requests did not use the API quota: one API request is still left.
    const last = await api.get('/catalog/genres');
    expect(last.status).toBe(200);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
  });
});

import { createServer } from 'node:http';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app.js';
import { endpoints } from '../../src/catalog/endpoints/index.js';
import type { FeedService } from '../../src/feeds/service.js';
import type { CatalogService } from '../../src/catalog/service.js';
import { withCachedHits } from '../../src/http/hitPath.js';
import type { Quota } from '../../src/http/middleware/rateLimit.js';
import { createMetrics, type Metrics } from '../../src/metrics.js';
import { startTestStack, type TestStack, noProbe } from '../helpers/testApp.js';

// The cached-hit path (src/http/hitPath.ts) answers in front of Express with its own writer; what
// it logs and counts must be what the Express path logs and counts for the same request.

interface RequestLine {
  msg: string;
  requestId: string;
  route: string;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  cache?: string;
  errorCode?: string;
}

let stack: TestStack;
let app: App;
let metrics: Metrics;
const lines: RequestLine[] = [];

beforeAll(async () => {
  stack = await startTestStack({ env: { RATE_LIMIT_MAX: '3' } });
  // The app again, with a logger and a registry the tests read.
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as RequestLine) });
  metrics = createMetrics();
  app = createApp({ config: stack.config, logger, metrics, scheduleProbe: noProbe });
});
afterAll(async () => {
  await app.close();
  await stack.close();
});

const requestLines = () => lines.filter((line) => line.msg === 'request');

describe('the cached-hit path', () => {
  it('logs one line per request and counts it, as the Express path does, for a miss, a hit, a 304 and a 429', async () => {
    const miss = await request(app).get('/catalog/genres').set('X-Request-Id', 'trace-miss-0001');
    const hit = await request(app).get('/catalog/genres?page=x').set('X-Request-Id', 'trace-hit-00002');
    const notModified = await request(app).get('/catalog/genres').set('If-None-Match', miss.headers['etag'] as string);
    const refused = await request(app).get('/catalog/genres').set('X-Request-Id', 'trace-429-00004');
    expect([miss.status, hit.status, notModified.status, refused.status]).toEqual([200, 200, 304, 429]);
    expect([miss.headers['x-cache'], hit.headers['x-cache'], notModified.headers['x-cache']]).toEqual(['MISS', 'HIT', 'HIT']);
    expect(stack.simulator.hitCount()).toBe(1);

    // The 304 keeps the validators and the quota headers, and sends no body.
    expect(notModified.headers['etag']).toBe(miss.headers['etag']);
    expect(notModified.headers['x-ratelimit-remaining']).toBe('0');
    expect(notModified.headers['access-control-allow-origin']).toBe('*');
    expect(notModified.text).toBe('');
    expect(refused.headers['x-request-id']).toBe('trace-429-00004');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['cache-control']).toBe('no-store');

    const logged = requestLines();
    expect(logged.map(({ requestId, route, method, url, status, cache, errorCode }) => ({ requestId, route, method, url, status, cache, errorCode }))).toEqual([
      { requestId: 'trace-miss-0001', route: '/catalog/genres', method: 'GET', url: '/catalog/genres', status: 200, cache: 'MISS', errorCode: undefined },
      { requestId: 'trace-hit-00002', route: '/catalog/genres', method: 'GET', url: '/catalog/genres?page=x', status: 200, cache: 'HIT', errorCode: undefined },
      { requestId: notModified.headers['x-request-id'], route: '/catalog/genres', method: 'GET', url: '/catalog/genres', status: 304, cache: 'HIT', errorCode: undefined },
      { requestId: 'trace-429-00004', route: '/catalog/genres', method: 'GET', url: '/catalog/genres', status: 429, cache: undefined, errorCode: 'RATE_LIMITED' },
    ]);
    for (const line of logged) expect(line.durationMs).toBeGreaterThanOrEqual(0);

    const scrape = await metrics.registry.metrics();
    expect(scrape).toContain('http_requests_total{route="/catalog/genres",method="GET",status="200"} 2');
    expect(scrape).toContain('http_requests_total{route="/catalog/genres",method="GET",status="304"} 1');
    expect(scrape).toContain('http_requests_total{route="/catalog/genres",method="GET",status="429"} 1');
    expect(scrape).toContain('http_request_duration_seconds_count{route="/catalog/genres",method="GET",status="200"} 2');
  });
});

describe('a parametrised endpoint on both paths', () => {
  it('is logged and counted under its table path by the Express path (the miss) and the hit path alike', async () => {
    const seen: RequestLine[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => seen.push(JSON.parse(line) as RequestLine) });
    const counted = createMetrics();
    const both = createApp({ config: { ...stack.config, RATE_LIMIT_MAX: 100 }, logger, metrics: counted, scheduleProbe: noProbe });
    try {
      const miss = await request(both).get('/catalog/series/shadow-chronicle');
      const hit = await request(both).get('/catalog/series/shadow-chronicle');
      expect([miss.status, miss.headers['x-cache'], hit.status, hit.headers['x-cache']]).toEqual([200, 'MISS', 200, 'HIT']);
      const routes = seen.filter((line) => line.msg === 'request').map((line) => [line.route, line.cache]);
      expect(routes).toEqual([
        ['/catalog/series/{slug}', 'MISS'],
        ['/catalog/series/{slug}', 'HIT'],
      ]);
      const scrape = await counted.registry.metrics();
      expect(scrape).toContain('http_requests_total{route="/catalog/series/{slug}",method="GET",status="200"} 2');
      expect(scrape).not.toContain('/catalog/series/:slug');
    } finally {
      await both.close();
    }
  });
});

describe('the cached-hit path when the quota cannot be counted', () => {
  it('answers the 500 envelope with the request id and the API headers, and logs the line with its code', async () => {
    const answer = { body: Buffer.from('{}'), etag: 'W/"x"', fetchedAt: Date.now(), ttlSeconds: 60, upstream: { url: '', status: 200, attempts: 1, durationMs: 1 } };
    const catalog = { cached: () => ({ answer, cacheStatus: 'HIT' }), fetch: () => Promise.reject(new Error('not used')) } as unknown as CatalogService;
    const quota = Object.assign(() => undefined, { count: () => Promise.reject(new Error('quota store down')) }) as unknown as Quota;
    const logged: RequestLine[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line) as RequestLine) });
    const notExpress = () => {
      throw new Error('the hit path must answer this request itself');
    };
    const feeds = { cached: () => undefined } as unknown as FeedService;
    const listener = withCachedHits(notExpress, { catalog, feeds, origin: { trustProxy: () => false, publicUrl: undefined }, quota, logger, metrics: createMetrics(), now: Date.now });

    const res = await request(createServer(listener)).get(endpoints[0]!.path).set('X-Request-Id', 'trace-down-0001');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ status: 'error', error: { code: 'INTERNAL_ERROR' }, requestId: 'trace-down-0001' });
    expect(res.text).not.toContain('quota store down');
    expect(res.headers['x-request-id']).toBe('trace-down-0001');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe('no-store');
    const line = logged.find((entry) => entry.msg === 'request');
    expect(line).toMatchObject({ requestId: 'trace-down-0001', route: endpoints[0]!.path, status: 500, errorCode: 'INTERNAL_ERROR' });
  });
});

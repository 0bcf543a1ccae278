import { createServer } from 'node:http';
import { pino } from 'pino';
import request from 'supertest';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import { endpoints, freshSeconds } from '../../src/catalog/endpoints/index.js';
import { createDoor } from '../../src/http/door.js';
import type { Quota } from '../../src/http/middleware/rateLimit.js';
import type { ApiResource } from '../../src/http/resources/resource.js';
import { createMetrics } from '../../src/metrics.js';
import { exampleFor } from '../../src/openapi/examples/index.js';
import { listenOnLoopback, noProbe, startTestStack, type TestStack } from '../helpers/testApp.js';
import { manualClock, until } from '../helpers/waiting.js';

// The API's one door (src/http/door.ts): every /catalog and /feeds request is resolved, counted and
// answered there, hits and misses alike, and a client past its quota costs the site nothing.

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

let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const episodeSlug = exampleFor('/catalog/episode/{slug}').parameters.slug!;

describe('the door', () => {
  it('logs one line per request and counts it, for a miss, a hit, a free 304 and a 429', async () => {
    stack = await startTestStack({ env: { RATE_LIMIT_MAX: '3' } });
    const lines: RequestLine[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as RequestLine) });
    const metrics = createMetrics();
    const app = createApp({ config: stack.config, logger, metrics, scheduleProbe: noProbe });
    try {
      const miss = await request(app).get('/catalog/genres').set('X-Request-Id', 'trace-miss-0001');
      const hit = await request(app).get('/catalog/genres?page=x').set('X-Request-Id', 'trace-hit-00002');
      const notModified = await request(app)
        .get('/catalog/genres')
        .set('If-None-Match', miss.headers['etag'] as string);
      const third = await request(app).get('/catalog/genres');
      const refused = await request(app).get('/catalog/genres').set('X-Request-Id', 'trace-429-00005');
      expect([miss.status, hit.status, notModified.status, third.status, refused.status]).toEqual([200, 200, 304, 200, 429]);
      expect([miss.headers['x-cache'], hit.headers['x-cache'], notModified.headers['x-cache'], third.headers['x-cache']]).toEqual([
        'MISS',
        'HIT',
        'HIT',
        'HIT',
      ]);
      expect(stack.simulator.hitCount()).toBe(1);

      // The 304 keeps the validators, says the quota as it stands (it was not counted), and sends no body.
      expect(notModified.headers['etag']).toBe(miss.headers['etag']);
      expect(notModified.headers['x-ratelimit-remaining']).toBe('1');
      expect(third.headers['x-ratelimit-remaining']).toBe('0');
      expect(notModified.headers['access-control-allow-origin']).toBe('*');
      expect(notModified.text).toBe('');
      expect(refused.headers['x-request-id']).toBe('trace-429-00005');
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.headers['cache-control']).toBe('no-store');

      const logged = lines.filter((line) => line.msg === 'request');
      expect(
        logged.map(({ requestId, route, method, url, status, cache, errorCode }) => ({
          requestId,
          route,
          method,
          url,
          status,
          cache,
          errorCode,
        })),
      ).toEqual([
        {
          requestId: 'trace-miss-0001',
          route: '/catalog/genres',
          method: 'GET',
          url: '/catalog/genres',
          status: 200,
          cache: 'MISS',
          errorCode: undefined,
        },
        {
          requestId: 'trace-hit-00002',
          route: '/catalog/genres',
          method: 'GET',
          url: '/catalog/genres?page=x',
          status: 200,
          cache: 'HIT',
          errorCode: undefined,
        },
        {
          requestId: notModified.headers['x-request-id'],
          route: '/catalog/genres',
          method: 'GET',
          url: '/catalog/genres',
          status: 304,
          cache: 'HIT',
          errorCode: undefined,
        },
        {
          requestId: third.headers['x-request-id'],
          route: '/catalog/genres',
          method: 'GET',
          url: '/catalog/genres',
          status: 200,
          cache: 'HIT',
          errorCode: undefined,
        },
        {
          requestId: 'trace-429-00005',
          route: '/catalog/genres',
          method: 'GET',
          url: '/catalog/genres',
          status: 429,
          cache: undefined,
          errorCode: 'RATE_LIMITED',
        },
      ]);
      const scrape = await metrics.registry.metrics();
      expect(scrape).toContain('http_requests_total{route="/catalog/genres",method="GET",status="200"} 3');
      expect(scrape).toContain('http_requests_total{route="/catalog/genres",method="GET",status="304"} 1');
      expect(scrape).toContain('http_requests_total{route="/catalog/genres",method="GET",status="429"} 1');
      // The free 304 and the refused request looked nothing up that counts.
      expect(scrape.match(/^cache_lookups_total\{.*$/gm)).toEqual([
        'cache_lookups_total{result="miss"} 1',
        'cache_lookups_total{result="hit"} 2',
      ]);
    } finally {
      await app.close();
    }
  });

  it('names a parametrised endpoint and a feed by their table paths, miss and hit alike', async () => {
    stack = await startTestStack();
    const lines: RequestLine[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as RequestLine) });
    const app = createApp({ config: stack.config, logger, scheduleProbe: noProbe });
    try {
      for (const path of [
        '/catalog/series/shadow-chronicle',
        '/catalog/series/shadow-chronicle',
        '/feeds/series/shadow-chronicle.atom',
        '/feeds/series/shadow-chronicle.rss',
      ])
        expect((await request(app).get(path)).status).toBe(200);
      expect(lines.filter((line) => line.msg === 'request').map((line) => [line.route, line.cache])).toEqual([
        ['/catalog/series/{slug}', 'MISS'],
        ['/catalog/series/{slug}', 'HIT'],
        ['/feeds/series/{slug}.{format}', 'HIT'],
        ['/feeds/series/{slug}.{format}', 'HIT'],
      ]);
    } finally {
      await app.close();
    }
  });

  it('answers a hit with the same headers as the miss before it: quota, cache, CORS, request id', async () => {
    stack = await startTestStack({ env: { RATE_LIMIT_MAX: '100' } });
    // One server, so that a feed names the same URL of itself (its Host) both times.
    const server = await listenOnLoopback(stack.app);
    onTestFinished(() => server.close());
    for (const path of ['/catalog/series/shadow-chronicle?x=1', '/feeds/latest.json']) {
      const miss = await request(server.baseUrl).get(path).set('X-Request-Id', 'trace-same-miss');
      const hit = await request(server.baseUrl).get(path).set('X-Request-Id', 'trace-same-hit0');
      expect([miss.status, hit.status]).toEqual([200, 200]);
      const names = (headers: Record<string, string>) =>
        Object.keys(headers)
          .filter((name) => name !== 'date' && name !== 'connection' && name !== 'keep-alive')
          .sort();
      expect(names(hit.headers)).toEqual(names(miss.headers));
      expect(names(hit.headers)).toEqual(
        expect.arrayContaining([
          'x-ratelimit-limit',
          'x-ratelimit-remaining',
          'x-ratelimit-reset',
          'x-cache',
          'age',
          'cache-control',
          'etag',
          'access-control-allow-origin',
          'access-control-expose-headers',
          'x-request-id',
          'x-content-type-options',
        ]),
      );
      expect([miss.headers['x-request-id'], hit.headers['x-request-id']]).toEqual(['trace-same-miss', 'trace-same-hit0']);
      expect(Number(miss.headers['x-ratelimit-remaining']) - Number(hit.headers['x-ratelimit-remaining'])).toBe(1);
      for (const name of [
        'access-control-allow-origin',
        'access-control-expose-headers',
        'x-content-type-options',
        'content-type',
        'etag',
        'x-ratelimit-limit',
        'x-ratelimit-reset',
      ])
        expect([name, hit.headers[name]]).toEqual([name, miss.headers[name]]);
      expect([miss.headers['x-cache'], hit.headers['x-cache']]).toEqual(['MISS', 'HIT']);
      expect(hit.body).toEqual(miss.body);
    }
  });

  it('answers the 500 envelope with the request id and the API headers when the quota cannot be counted', async () => {
    const logged: RequestLine[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line) as RequestLine) });
    const quota: Quota = { count: () => Promise.reject(new Error('quota store down')), peek: () => Promise.reject(new Error('not used')) };
    let answered = 0;
    const resource: ApiResource<string> = {
      segment: 'catalog',
      resolve: () => ({ route: '/catalog/home', request: 'home' }),
      answer: () => {
        answered++;
        throw new Error('the door must not answer before the quota counted');
      },
    };
    const notExpress = () => {
      throw new Error('the door must answer this request itself');
    };
    const door = createDoor(notExpress, { resources: [resource], quota, logger, metrics: createMetrics() });
    const res = await request(createServer(door)).get('/catalog/home').set('X-Request-Id', 'trace-down-0001');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ status: 'error', error: { code: 'INTERNAL_ERROR' }, requestId: 'trace-down-0001' });
    expect(res.text).not.toContain('quota store down');
    expect(res.headers['x-request-id']).toBe('trace-down-0001');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(answered).toBe(0);
    expect(logged.find((entry) => entry.msg === 'request')).toMatchObject({
      requestId: 'trace-down-0001',
      route: '/catalog/home',
      status: 500,
      errorCode: 'INTERNAL_ERROR',
    });
  });
});

describe('a client past its quota', () => {
  it('gets 429 for every conditional, HEAD and plain request that would need the site, and the site sees none of them', async () => {
    const clock = manualClock();
    stack = await startTestStack({ now: clock.now, env: { RATE_LIMIT_MAX: '3', TRUST_PROXY: '1' } });
    const as = (client: string) => ({
      get: (path: string) => request(stack!.app).get(path).set('X-Forwarded-For', client),
      head: (path: string) => request(stack!.app).head(path).set('X-Forwarded-For', client),
    });
    const other = as('203.0.113.8');
    const refused = as('203.0.113.7');
    // Another client caches answers that then go stale.
    const homeAnswer = await other.get('/catalog/home');
    expect((await other.get('/feeds/latest.atom')).status).toBe(200);
    // This client spends its quota on them while they are fresh.
    expect((await refused.get('/catalog/home')).status).toBe(200);
    expect((await refused.get('/feeds/latest.atom')).status).toBe(200);
    expect((await refused.get('/catalog/home')).status).toBe(200);
    const home = endpoints.find((endpoint) => endpoint.path === '/catalog/home')!;
    clock.offsetMs = (freshSeconds(home, stack.config) + 5) * 1000;
    stack.simulator.resetHits();

    const uncached = [
      '/feeds/series/shadow-chronicle.atom',
      '/feeds/series/no-such-series-here.rss',
      '/feeds/movies.json',
      '/catalog/series/shadow-chronicle',
      '/catalog/series/no-such-series-here',
      `/catalog/episode/${episodeSlug}`,
      '/catalog/search?q=dragon',
      '/catalog/search?q=rotating-slug-1',
    ];
    const staleOfAnother = ['/catalog/home', '/feeds/latest.atom', '/feeds/latest.json'];
    const statuses: [string, string, number][] = [];
    for (const path of [...uncached, ...staleOfAnother]) {
      statuses.push([path, 'plain', (await refused.get(path)).status]);
      statuses.push([path, 'HEAD', (await refused.head(path)).status]);
      statuses.push([path, 'If-None-Match: old', (await refused.get(path).set('If-None-Match', 'W/"an-old-one"')).status]);
      statuses.push([path, 'If-Modified-Since', (await refused.get(path).set('If-Modified-Since', new Date().toUTCString())).status]);
    }
    for (const path of uncached) statuses.push([path, 'If-None-Match: *', (await refused.get(path).set('If-None-Match', '*')).status]);
    expect(statuses.filter(([, , status]) => status !== 429)).toEqual([]);

    // A conditional request answered 304 from what the service holds is free, and starts no refresh.
    for (const validator of [homeAnswer.headers['etag'] as string, '*']) {
      const revalidated = await refused.get('/catalog/home').set('If-None-Match', validator);
      expect([revalidated.status, revalidated.headers['x-cache'], revalidated.headers['x-ratelimit-remaining']]).toEqual([
        304,
        'STALE',
        '0',
      ]);
    }

    // Refreshes and fetches are asynchronous: give any that were started time to reach the site.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stack.simulator.hits.map((hit) => hit.path)).toEqual([]);
    // The other client still has its quota, and its stale answer starts the one refresh.
    const served = await other.get('/catalog/home');
    expect([served.status, served.headers['x-cache']]).toEqual([200, 'STALE']);
    await until(() => stack!.simulator.hits.length > 0);
    expect(stack.simulator.hits.map((hit) => hit.path)).toEqual(['/']);
  });
});

describe('one error, one body', () => {
  it('writes the same envelope and headers for the same error from the door and from Express', async () => {
    stack = await startTestStack();
    const envelopeOf = (response: request.Response) => ({ ...(response.body as object), requestId: undefined });
    const paths = ['/catalog/series/%E0%A4%A', '/feeds/series/%E0%A4%A.atom', '/report/sent/%E0%A4%A'];
    const answers = await Promise.all(paths.map((path) => request(stack!.app).get(path).set('Accept', 'application/json')));
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    const [door, feeds, express] = answers.map(envelopeOf);
    expect(door).toMatchObject({ status: 'error', error: { code: 'INVALID_PARAMETER', details: [{ field: 'path' }] } });
    expect(feeds).toEqual(door);
    expect(express).toEqual(door);
    for (const answer of answers) {
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.text)));
      expect(answer.headers['x-request-id']).toBe((answer.body as { requestId: string }).requestId);
    }
  });
});

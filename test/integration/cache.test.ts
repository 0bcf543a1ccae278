import { pino } from 'pino';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../helpers/testApp.js';
import { manualClock, until } from '../helpers/waiting.js';

let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe('the answer cache over HTTP', () => {
  it('answers a repeat from the cache without a new upstream request', async () => {
    stack = await startTestStack();
    const first = await request(stack.app).get('/catalog/ongoing-series?page=2');
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBe('MISS');
    expect(stack.simulator.hitCount()).toBe(1);
    const second = await request(stack.app).get('/catalog/ongoing-series?page=2&unknown=1');
    expect(second.status).toBe(200);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.text).toBe(first.text);
    expect(second.headers['etag']).toBe(first.headers['etag']);
    expect(second.headers['cache-control']).toMatch(/^public, max-age=(599|600)$/);
    expect(stack.simulator.hitCount()).toBe(1);
    // page=1 is a different answer from page=2, and the default page fills in.
    await request(stack.app).get('/catalog/ongoing-series');
    expect((await request(stack.app).get('/catalog/ongoing-series?page=1')).headers['x-cache']).toBe('HIT');
    expect(stack.simulator.hitCount()).toBe(2);
  });

  it('answers a hit (in front of Express) with the same headers as a miss (through Express)', async () => {
    stack = await startTestStack({ env: { RATE_LIMIT_MAX: '10' } });
    const miss = await request(stack.app).get('/catalog/genres').set('X-Request-Id', 'trace-miss-0001');
    const hit = await request(stack.app).get('/catalog/genres').set('X-Request-Id', 'trace-hit-00002');
    expect([miss.headers['x-cache'], hit.headers['x-cache']]).toEqual(['MISS', 'HIT']);
    const names = (headers: Record<string, unknown>) =>
      Object.keys(headers)
        .filter((name) => name !== 'date')
        .sort();
    expect(names(hit.headers)).toEqual(names(miss.headers));
    expect(hit.headers['x-content-type-options']).toBe('nosniff');
    for (const name of [
      'access-control-allow-origin',
      'access-control-expose-headers',
      'x-content-type-options',
      'content-type',
      'etag',
      'x-ratelimit-limit',
    ]) {
      expect(hit.headers[name], name).toBe(miss.headers[name]);
    }
    expect(hit.headers['x-request-id']).toBe('trace-hit-00002');
    expect([miss.headers['x-ratelimit-remaining'], hit.headers['x-ratelimit-remaining']]).toEqual(['9', '8']);
    expect(hit.text).toBe(miss.text);
  });

  it("counts a hit's Age and max-age by the clock: the same within a second, on from one second to the next", async () => {
    // A clock that moves only when told, so that no real second passes between two requests.
    const startedAt = Date.now();
    const clock = { offsetMs: 0, now: () => startedAt + clock.offsetMs };
    stack = await startTestStack({ now: clock.now });
    const miss = await request(stack.app).get('/catalog/genres');
    const ageAndMaxAge = (response: request.Response) => [
      response.headers['x-cache'],
      response.headers['age'],
      response.headers['cache-control'],
    ];
    expect(ageAndMaxAge(miss)).toEqual(['MISS', '0', 'public, max-age=43200']);
    expect(ageAndMaxAge(await request(stack.app).get('/catalog/genres'))).toEqual(['HIT', '0', 'public, max-age=43200']);
    clock.offsetMs = 1_000;
    expect(ageAndMaxAge(await request(stack.app).get('/catalog/genres'))).toEqual(['HIT', '1', 'public, max-age=43199']);
    expect(ageAndMaxAge(await request(stack.app).get('/catalog/genres'))).toEqual(['HIT', '1', 'public, max-age=43199']);
    clock.offsetMs = 61_000;
    expect(ageAndMaxAge(await request(stack.app).get('/catalog/genres'))).toEqual(['HIT', '61', 'public, max-age=43139']);
  });

  it('gives searches that differ only in case or spacing one cache entry', async () => {
    stack = await startTestStack();
    expect((await request(stack.app).get('/catalog/search?q=Soul')).headers['x-cache']).toBe('MISS');
    const again = await request(stack.app).get('/catalog/search?q=%20%20sOUL%20');
    expect(again.headers['x-cache']).toBe('HIT');
    expect(again.body.data.query).toBe('soul');
    expect(stack.simulator.hitCount()).toBe(1);
  });

  it('answers 304 to a matching If-None-Match on a hit, and 200 to a stale validator', async () => {
    stack = await startTestStack();
    const first = await request(stack.app).get('/catalog/genres');
    const revalidated = await request(stack.app)
      .get('/catalog/genres')
      .set('If-None-Match', first.headers['etag'] as string);
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe('');
    expect(revalidated.headers['x-cache']).toBe('HIT');
    const changed = await request(stack.app).get('/catalog/genres').set('If-None-Match', 'W/"something-else"');
    expect(changed.status).toBe(200);
  });

  it('shares one upstream fetch among 100 concurrent cold requests for one key', async () => {
    const lines: Array<{ msg: string; cache?: string; upstream?: { url: string; status: number; attempts: number } }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) });
    stack = await startTestStack({ simulator: { latencyMs: 300 }, logger });
    const responses = await Promise.all(Array.from({ length: 100 }, () => request(stack!.app).get('/catalog/popular-series')));
    expect(responses.map((response) => response.status)).toEqual(Array(100).fill(200));
    expect(new Set(responses.map((response) => response.text)).size).toBe(1);
    // One fetch of the list, after one read of the home page for the list's path, which the 100 share too.
    expect(stack.simulator.hits.map((hit) => hit.path)).toEqual(['/', '/seri/?order=popular&page=1']);
    // Every request waited for the one fetch: each is a MISS and logs what the upstream did; a hit after logs nothing of it.
    expect(new Set(responses.map((response) => response.headers['x-cache']))).toEqual(new Set(['MISS']));
    await request(stack.app).get('/catalog/popular-series').expect('X-Cache', 'HIT');
    const logged = lines
      .filter((line) => line.msg === 'request')
      .map(({ cache, upstream }) => ({ cache, upstream: upstream && { ...upstream, durationMs: undefined } }));
    const fetched = { url: responses[0]!.body.meta.source as string, status: 200, attempts: 1, durationMs: undefined };
    expect(logged).toEqual([
      ...Array.from({ length: 100 }, () => ({ cache: 'MISS', upstream: fetched })),
      { cache: 'HIT', upstream: undefined },
    ]);
  });

  it('serves a stale answer at once past its TTL and refreshes it once in the background', async () => {
    const clock = manualClock();
    stack = await startTestStack({ now: clock.now, simulator: { latencyMs: 200 } });
    const first = await request(stack.app).get('/catalog/genres');
    clock.offsetMs = 43_200_000 + 5_000;
    const stale = await Promise.all([1, 2, 3].map(() => request(stack!.app).get('/catalog/genres')));
    for (const response of stale) {
      expect(response.status).toBe(200);
      expect(response.headers['x-cache']).toBe('STALE');
      expect(response.headers['cache-control']).toBe('public, max-age=0');
      expect(Number(response.headers['age'])).toBeGreaterThanOrEqual(43_205);
      expect(response.text).toBe(first.text);
    }
    await until(() => stack!.simulator.hitCount() === 2);
    let refreshed = await request(stack.app).get('/catalog/genres');
    for (let i = 0; i < 1_000 && refreshed.headers['x-cache'] !== 'HIT'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      refreshed = await request(stack.app).get('/catalog/genres');
    }
    expect(refreshed.headers['x-cache']).toBe('HIT');
    expect(stack.simulator.hitCount()).toBe(2);
    expect(refreshed.headers['age']).toBe('0');
    expect(Date.parse(refreshed.body.meta.fetchedAt)).toBeGreaterThan(Date.parse(first.body.meta.fetchedAt));
  });

  it('serves the stale answer instead of an error while the upstream fails (stale-if-error)', async () => {
    const clock = manualClock();
    stack = await startTestStack({ now: clock.now });
    const first = await request(stack.app).get('/catalog/new-movie');
    stack.simulator.setFaults([{ kind: 'status', status: 503 }]);
    clock.offsetMs = 1_800_000 + 1_000;
    // Served at once while its refresh runs, as it was.
    const whileRefreshing = await request(stack.app).get('/catalog/new-movie');
    expect(whileRefreshing.status).toBe(200);
    expect(whileRefreshing.headers['x-cache']).toBe('STALE');
    expect(whileRefreshing.text).toBe(first.text);
    // Once the refresh failed, the same answer says why, until a refresh succeeds.
    let marked = await request(stack.app).get('/catalog/new-movie');
    for (let i = 0; i < 1_000 && marked.body.meta.stale === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      marked = await request(stack.app).get('/catalog/new-movie');
    }
    expect(marked.status).toBe(200);
    expect(marked.headers['x-cache']).toBe('STALE');
    expect(marked.body.data).toEqual(first.body.data);
    expect(marked.body.meta.stale).toEqual({ since: first.body.meta.fetchedAt, reason: 'UPSTREAM_ERROR' });
    // Past the stale window, the last good answer stands in, saying so in meta.stale.
    clock.offsetMs = 1_800_000 + 86_400_000 + 1_000;
    const kept = await request(stack.app).get('/catalog/new-movie');
    expect(kept.status).toBe(200);
    expect(kept.headers['x-cache']).toBe('STALE');
    expect(kept.body.meta.stale).toEqual({ since: first.body.meta.fetchedAt, reason: 'UPSTREAM_ERROR' });
    // Past STALE_IF_ERROR_S (7 days) the error is told, not hidden behind week-old data.
    clock.offsetMs = 7 * 86_400_000 + 1_000;
    const tooOld = await request(stack.app).get('/catalog/new-movie');
    expect(tooOld.status).toBe(502);
    expect(tooOld.body.error.code).toBe('UPSTREAM_ERROR');
  });

  it.each([
    ['an upstream error', { kind: 'status', status: 500 } as const, 502, 'UPSTREAM_ERROR'],
    ['a layout change', { kind: 'layout-change' } as const, 502, 'UPSTREAM_LAYOUT_CHANGED'],
    ['a challenge page', { kind: 'challenge' } as const, 503, 'UPSTREAM_BLOCKED'],
  ])('caches nothing after %s', async (_name, fault, status, code) => {
    stack = await startTestStack();
    stack.simulator.setFaults([fault]);
    const failed = await request(stack.app).get('/catalog/home');
    expect(failed.status).toBe(status);
    expect(failed.body.error.code).toBe(code);
    expect(failed.headers['x-cache']).toBeUndefined();
    stack.simulator.clearFaults();
    stack.simulator.resetHits();
    const next = await request(stack.app).get('/catalog/home');
    expect(next.status).toBe(200);
    expect(next.headers['x-cache']).toBe('MISS');
    expect(stack.simulator.hitCount()).toBe(1);
  });

  it('never replaces a good answer with a layout-changed page', async () => {
    const clock = manualClock();
    stack = await startTestStack({ now: clock.now });
    const good = await request(stack.app).get('/catalog/home');
    stack.simulator.setFaults([{ kind: 'layout-change' }]);
    clock.offsetMs = 300_000 + 1_000;
    expect((await request(stack.app).get('/catalog/home')).headers['x-cache']).toBe('STALE');
    await until(() => stack!.simulator.hitCount() === 2);
    const after = await request(stack.app).get('/catalog/home');
    expect(after.status).toBe(200);
    expect(after.headers['x-cache']).toBe('STALE');
    expect(after.text).toBe(good.text);
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/config/logger.js';
import { SERIES } from '../simulator/dataset.js';
import { SITE_DOWN_MODES, startSimulator, type Simulator, type SiteDownMode } from '../simulator/server.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';
import { manualClock, until } from '../helpers/waiting.js';

// The last good answers: every answer fetched is kept in DATA_DIR and stands in, marked stale, when
// the whole site fails (a bare 404 for every path included), across restarts; a page gone upstream
// (the site's own 404 page) drops its copy.

const DAY_MS = 86_400_000;
const SERIES_SLUG = 'shadow-chronicle';

/** One request of every endpoint kind. */
const CATALOG_PATHS = [
  '/catalog/home',
  '/catalog/search?q=soul',
  '/catalog/genres',
  '/catalog/ongoing-series',
  '/catalog/popular-series',
  '/catalog/new-movie',
  `/catalog/series/${SERIES_SLUG}`,
  `/catalog/episode/${SERIES_SLUG}-episode-100-subtitle-indonesia`,
  '/catalog/completed-series',
  '/catalog/genres/martial-arts',
  '/catalog/studios/build-dream',
  '/catalog/networks/bilibili',
  '/catalog/countries/china',
  '/catalog/seasons/2024',
  '/catalog/schedule',
  '/catalog/az-list?letter=S',
  '/catalog/series?status=ongoing&order=popular',
];
const FEED_PATHS = [`/feeds/series/${SERIES_SLUG}.atom`, '/feeds/latest.json'];

/** The codes each way of the site being down may answer: its own, or the breaker's once it opened. */
const REASONS: Record<SiteDownMode, string[]> = {
  // Not the site's own 404 page: a fault of the upstream, never "this page is gone".
  'bare-404': ['UPSTREAM_ERROR', 'UPSTREAM_UNAVAILABLE'],
  unavailable: ['UPSTREAM_ERROR', 'UPSTREAM_UNAVAILABLE'],
  challenge: ['UPSTREAM_BLOCKED', 'UPSTREAM_UNAVAILABLE'],
  timeout: ['UPSTREAM_TIMEOUT', 'UPSTREAM_UNAVAILABLE'],
  'layout-change': ['UPSTREAM_LAYOUT_CHANGED'],
};

// One site for the instances a test starts one after the other: the same origin, so the same feed entry ids.
let site: Simulator;
beforeAll(async () => {
  site = await startSimulator();
});
afterAll(() => site.close());

const stacks: TestStack[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((stack) => stack.close()));
  site.setSiteDown(null);
  site.clearFaults();
  site.resetHits();
});

/** An instance on `dataDir`: a restart when an earlier one used the same folder. */
async function instance(
  dataDir: string,
  clock: { now: () => number },
  env: Record<string, string> = {},
  logger?: Logger,
): Promise<TestStack> {
  const stack = await startTestStack({ sharedSimulator: site, env: { DATA_DIR: dataDir, ...env }, now: clock.now, logger });
  stacks.push(stack);
  return stack;
}

async function stop(stack: TestStack): Promise<void> {
  stacks.splice(stacks.indexOf(stack), 1);
  await stack.close();
}

// One Host for every request, so that feeds name the same URLs whichever instance answers.
const get = (stack: TestStack, path: string) => request(stack.app).get(path).set('Host', 'api.test');
const newDataDir = () => mkdtempSync(join(tmpdir(), 'last-good-'));

describe('last good answers when the whole site fails', () => {
  it('serves every endpoint kind and a feed as it was, marked stale, in every way the site goes down, after restarts on the same DATA_DIR', async () => {
    const dataDir = newDataDir();
    const clock = manualClock();
    const first = await instance(dataDir, clock);
    const fetched = new Map<string, request.Response>();
    for (const path of [...CATALOG_PATHS, ...FEED_PATHS]) {
      const response = await get(first, path);
      expect(response.status, path).toBe(200);
      // A feed is built from its catalog answer, fetched just before (series page, home).
      expect(response.headers['x-cache'], path).toBe(path.startsWith('/feeds/') ? 'HIT' : 'MISS');
      fetched.set(path, response);
    }
    await stop(first);

    // Past every TTL and the stale-while-revalidate window, within STALE_IF_ERROR_S (7 days).
    clock.offsetMs = 2 * DAY_MS;
    // A bare 404 has its own test below (then a 503, and a restart).
    for (const mode of SITE_DOWN_MODES.filter((down) => down !== 'bare-404')) {
      // A hung site is given up on at a 1 s deadline (the kept answers stand in at any deadline); the other
      // ways keep the suite's deadline, which a page of a loaded machine's site must meet.
      const restarted = await instance(dataDir, clock, mode === 'timeout' ? { UPSTREAM_TIMEOUT_S: '1' } : {});
      site.setSiteDown(mode);
      const answers = await Promise.all(CATALOG_PATHS.map((path) => get(restarted, path)));
      for (const [index, path] of CATALOG_PATHS.entries()) {
        const answer = answers[index]!;
        const original = fetched.get(path)!;
        expect(answer.status, `${mode} ${path}`).toBe(200);
        expect(answer.headers['x-cache'], `${mode} ${path}`).toBe('STALE');
        expect(Number(answer.headers['age']), `${mode} ${path}`).toBeGreaterThanOrEqual(2 * 86_400);
        expect(answer.headers['cache-control'], `${mode} ${path}`).toBe('public, max-age=0');
        expect(answer.headers['etag'], `${mode} ${path}`).toBe(original.headers['etag']);
        expect(answer.body.data, `${mode} ${path}`).toEqual(original.body.data);
        expect(answer.body.pagination, `${mode} ${path}`).toEqual(original.body.pagination);
        const { stale, ...meta } = answer.body.meta;
        expect(meta, `${mode} ${path}`).toEqual(original.body.meta);
        expect(stale.since, `${mode} ${path}`).toBe(original.body.meta.fetchedAt);
        expect(REASONS[mode], `${mode} ${path}: ${stale.reason}`).toContain(stale.reason);
      }
      for (const path of FEED_PATHS) {
        const feed = await get(restarted, path);
        expect(feed.status, `${mode} ${path}`).toBe(200);
        expect(feed.headers['x-cache'], `${mode} ${path}`).toBe('STALE');
        expect(feed.text, `${mode} ${path}`).toBe(fetched.get(path)!.text);
      }
      // A page never fetched has no kept answer: its typed error stands.
      const neverFetched = await get(restarted, `/catalog/series/${SERIES.find((series) => series.slug !== SERIES_SLUG)!.slug}`);
      expect(neverFetched.status, mode).toBeGreaterThanOrEqual(502);
      expect(REASONS[mode], `${mode}: ${neverFetched.body.error?.code}`).toContain(neverFetched.body.error.code);
      await stop(restarted);
    }
  });

  it('takes a bare 404 for every path as a fault, not as pages gone: every kept answer is served stale, then through a 503 and a restart, none deleted', async () => {
    const dataDir = newDataDir();
    const clock = manualClock();
    const first = await instance(dataDir, clock);
    const fetched = new Map<string, request.Response>();
    for (const path of CATALOG_PATHS) fetched.set(path, await get(first, path));
    // Past every TTL and the stale-while-revalidate window, within STALE_IF_ERROR_S (7 days).
    clock.offsetMs = 2 * DAY_MS;
    const expectAllStale = async (stack: TestStack, mode: SiteDownMode) => {
      site.setSiteDown(mode);
      for (const path of CATALOG_PATHS) {
        const answer = await get(stack, path);
        expect(answer.status, `${mode} ${path}`).toBe(200);
        expect(answer.headers['x-cache'], `${mode} ${path}`).toBe('STALE');
        expect(answer.body.data, `${mode} ${path}`).toEqual(fetched.get(path)!.body.data);
        expect(REASONS[mode], `${mode} ${path}: ${answer.body.meta.stale.reason}`).toContain(answer.body.meta.stale.reason);
      }
    };
    await expectAllStale(first, 'bare-404');
    await expectAllStale(first, 'unavailable');
    await stop(first);
    await expectAllStale(await instance(dataDir, clock), 'unavailable');
  });

  it('serves kept answers after a restart as hits within their TTL, without asking the upstream', async () => {
    const dataDir = newDataDir();
    const clock = manualClock();
    const first = await instance(dataDir, clock);
    const original = await get(first, '/catalog/genres');
    await stop(first);
    site.resetHits();
    clock.offsetMs = 60_000;
    const restarted = await instance(dataDir, clock);
    const again = await get(restarted, '/catalog/genres');
    expect(again.status).toBe(200);
    expect(again.headers['x-cache']).toBe('HIT');
    expect(Number(again.headers['age'])).toBeGreaterThanOrEqual(60);
    expect(again.text).toBe(original.text);
    expect(site.hitCount()).toBe(0);
  });

  it('answers 404 for a page gone upstream and drops its kept copy, for good', async () => {
    const dataDir = newDataDir();
    const clock = manualClock();
    const stack = await instance(dataDir, clock);
    const path = `/catalog/series/${SERIES_SLUG}`;
    expect((await get(stack, path)).status).toBe(200);
    clock.offsetMs = 2 * DAY_MS;
    site.setFaults([{ kind: 'not-found' }]);
    const gone = await get(stack, path);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('NOT_FOUND');
    site.clearFaults();
    site.setSiteDown('unavailable');
    const down = await get(stack, path);
    expect(down.status).toBe(502);
    expect(down.body.error.code).toBe('UPSTREAM_ERROR');
    await stop(stack);
    const restarted = await instance(dataDir, clock);
    site.setSiteDown('unavailable');
    expect((await get(restarted, path)).body.error.code).toBe('UPSTREAM_ERROR');
  });

  it('counts stale answers by reason in /metrics and says on /health/history since when, until a fetch succeeds again', async () => {
    const clock = manualClock();
    const stack = await instance(newDataDir(), clock);
    await get(stack, '/catalog/ongoing-series');
    await get(stack, '/catalog/schedule');
    clock.offsetMs = 2 * DAY_MS;
    site.setSiteDown('layout-change');
    const servedFrom = clock.now();
    expect((await get(stack, '/catalog/ongoing-series')).headers['x-cache']).toBe('STALE');
    expect((await get(stack, '/catalog/ongoing-series')).headers['x-cache']).toBe('STALE');
    const metrics = (await get(stack, '/metrics')).text;
    expect(metrics).toMatch(/^answers_served_stale_total\{reason="UPSTREAM_LAYOUT_CHANGED"\} 2$/m);
    const during = (await get(stack, '/health/history')).body;
    expect(Date.parse(during.api.lastGood.since)).toBeGreaterThanOrEqual(servedFrom);
    expect(during.api.lastGood).toMatchObject({ lastReason: 'UPSTREAM_LAYOUT_CHANGED', served: 2 });
    const page = (await get(stack, '/status')).text;
    expect(page).toContain('salinan terakhir yang baik');

    site.setSiteDown(null);
    expect((await get(stack, '/catalog/schedule')).headers['x-cache']).toBe('MISS');
    // Past the history's reuse period, so that it is built again.
    clock.offsetMs += 60_000;
    expect((await get(stack, '/health/history')).body.api.lastGood).toBeNull();
  });
});

describe('during an outage', () => {
  it('answers a key whose fetch failed from its last good answer, trying its page again in the background at most every 10 s', async () => {
    const clock = manualClock();
    const messages: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => messages.push((JSON.parse(line) as { msg: string }).msg) });
    const failedAgain = () => messages.filter((message) => message.includes('failed again')).length;
    const stack = await instance(newDataDir(), clock, {}, logger);
    await get(stack, '/catalog/ongoing-series');
    clock.offsetMs = 2 * DAY_MS;
    site.setSiteDown('layout-change');
    site.resetHits();
    expect((await get(stack, '/catalog/ongoing-series')).body.meta.stale.reason).toBe('UPSTREAM_LAYOUT_CHANGED');
    expect(site.hitCount()).toBe(1);
    for (let i = 0; i < 5; i++) {
      const again = await get(stack, '/catalog/ongoing-series');
      expect(again.headers['x-cache']).toBe('STALE');
      expect(again.body.meta.stale.reason).toBe('UPSTREAM_LAYOUT_CHANGED');
    }
    expect(site.hitCount()).toBe(1);
    clock.offsetMs += 10_000;
    // The try goes on in the background; the answer does not wait for it.
    expect((await get(stack, '/catalog/ongoing-series')).headers['x-cache']).toBe('STALE');
    await until(() => failedAgain() === 1);
    for (let i = 0; i < 3; i++)
      expect((await get(stack, '/catalog/ongoing-series')).body.meta.stale.reason).toBe('UPSTREAM_LAYOUT_CHANGED');
    expect(site.hitCount()).toBe(2);
    site.setSiteDown(null);
    clock.offsetMs += 10_000;
    expect((await get(stack, '/catalog/ongoing-series')).headers['x-cache']).toBe('STALE');
    let recovered = await get(stack, '/catalog/ongoing-series');
    for (let i = 0; i < 1_000 && recovered.headers['x-cache'] !== 'HIT'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      recovered = await get(stack, '/catalog/ongoing-series');
    }
    expect(recovered.headers['x-cache']).toBe('HIT');
    expect(recovered.body.meta.stale).toBeUndefined();
    expect(site.hitCount()).toBe(3);
  });
});

describe('within the stale-while-revalidate window', () => {
  it('drops an answer whose refresh finds the page gone, instead of serving it for the rest of the window', async () => {
    const clock = manualClock();
    const stack = await instance(newDataDir(), clock);
    const path = `/catalog/series/${SERIES_SLUG}`;
    expect((await get(stack, path)).headers['x-cache']).toBe('MISS');
    clock.offsetMs = 3_600_000;
    site.setFaults([{ kind: 'not-found' }]);
    expect((await get(stack, path)).headers['x-cache']).toBe('STALE');
    let after = await get(stack, path);
    for (let i = 0; i < 1_000 && after.status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      after = await get(stack, path);
    }
    expect(after.status).toBe(404);
    site.clearFaults();
    site.setSiteDown('unavailable');
    expect((await get(stack, path)).body.error.code).toBe('UPSTREAM_ERROR');
  });
});

describe('telling client authors', () => {
  it('explains on /docs and the landing page how long answers are kept and how to recognise a stale one', async () => {
    const stack = await instance(newDataDir(), manualClock(), { STALE_IF_ERROR_S: '172800' });
    for (const path of ['/docs', '/']) {
      const page = (await get(stack, path)).text;
      expect(page, path).toContain('disimpan di disk selama 2 hari');
      expect(page, path).toContain('Kenali jawaban pengganti dari <code>meta.stale</code>');
    }
    const schema = (await get(stack, '/openapi.json')).body.components.schemas;
    const meta = Object.values(schema as Record<string, { properties?: Record<string, { properties?: Record<string, unknown> }> }>).find(
      (entry) => entry.properties?.meta,
    )!.properties!.meta!;
    expect(Object.keys(meta.properties!)).toEqual(['source', 'fetchedAt', 'stale', 'catalogComplete']);
  });
});

import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';
import { until, untilRedisIs } from '../helpers/waiting.js';
import { SERIES } from '../simulator/dataset.js';
import { startSimulator, type Simulator } from '../simulator/server.js';
import { VARIANTS, type VariantName } from '../simulator/variant.js';

// An instance pointed at a site of the theme with nothing but UPSTREAM_BASE_URLS learns the site's
// paths from its pages: what the simulator's request log shows, per theme profile.

const [FIRST, SECOND] = [SERIES[0]!.slug, SERIES[1]!.slug];
const LEARNED_AT = Date.parse('2026-11-29T01:00:00Z');

let stacks: TestStack[] = [];
afterEach(async () => {
  await Promise.all(stacks.map((stack) => stack.close()));
  stacks = [];
});

async function instance(options: Parameters<typeof startTestStack>[0]): Promise<TestStack> {
  const stack = await startTestStack(options);
  stacks.push(stack);
  return stack;
}

/** Paths the site was asked for since the last call. */
function requestLog(simulator: Simulator): () => string[] {
  let seen = 0;
  return () => {
    const paths = simulator.hits.slice(seen).map((hit) => hit.path);
    seen = simulator.hits.length;
    return paths;
  };
}

describe.each<[VariantName, string[]]>([
  ['cafe', ['/seri/']],
  ['moe', ['/seri/', '/anime/', '/']],
  ['sister', ['/seri/', '/anime/']],
])('the %s profile from a cold start with only UPSTREAM_BASE_URLS', (profile, lookedUpUnder) => {
  it('looks the first series up once; lists, the filter and later series cost no lookup', async () => {
    // The app's clock, stopped: the paths say when they were learned.
    const stack = await instance({ simulator: { variant: profile }, now: () => LEARNED_AT });
    const { seriesBase, listPath } = VARIANTS[profile];
    const asked = requestLog(stack.simulator);
    const origin = stack.simulator.origin;

    const series = await request(stack.app).get(`/catalog/series/${FIRST}`);
    expect(series.status).toBe(200);
    expect(series.body.data.slug).toBe(FIRST);
    expect(series.body.meta.source).toBe(`${origin}${seriesBase}${FIRST}/`);
    expect(asked()).toEqual(lookedUpUnder.map((path) => `${path}${FIRST}/`));

    const popular = await request(stack.app).get('/catalog/popular-series');
    expect(popular.status).toBe(200);
    expect(popular.body.data.series.length).toBe(20);
    expect(asked()).toEqual([`${listPath}?order=popular&page=1`]);

    const filtered = await request(stack.app).get('/catalog/series?status=ongoing&genre=action');
    expect(filtered.status).toBe(200);
    expect(asked()).toEqual([`${listPath}?status=ongoing&genre%5B%5D=action&page=1`]);

    expect((await request(stack.app).get(`/catalog/series/${SECOND}`)).status).toBe(200);
    expect(asked()).toEqual([`${seriesBase}${SECOND}/`]);

    const { paths } = (await request(stack.app).get('/health/upstream')).body;
    expect(paths).toEqual({
      origin,
      series: { path: seriesBase, how: `${origin}${seriesBase}${FIRST}/ is a series page`, learnedAt: '2026-11-29T01:00:00.000Z' },
      list: {
        path: listPath,
        how:
          profile === 'sister'
            ? `no quick-filter form on ${origin}${seriesBase}${FIRST}/; derived from the series path`
            : `the quick-filter form of ${origin}${seriesBase}${FIRST}/`,
        learnedAt: '2026-11-29T01:00:00.000Z',
      },
    });

    const status = (await request(stack.app).get('/status')).text;
    expect(status).toContain(
      `<dt>Halaman seri</dt><dd><code>${seriesBase}</code>, dipelajari 29 Nov 2026, 08.00 WIB: ${origin}${seriesBase}${FIRST}/ is a series page</dd>`,
    );
    expect(status).toContain(
      `<dt>Daftar seri dan filternya</dt><dd><code>${listPath}</code>, dipelajari 29 Nov 2026, 08.00 WIB: ${paths.list.how}</dd>`,
    );
  });
});

describe('a site that moves its series pages mid-run', () => {
  it('is followed after one 404: the series seen before is gone too, so the series is looked up again', async () => {
    const stack = await instance({ simulator: { variant: 'cafe' } });
    const asked = requestLog(stack.simulator);
    expect((await request(stack.app).get(`/catalog/series/${FIRST}`)).status).toBe(200);
    asked();

    stack.simulator.moveSeriesPath('/anime/');
    const moved = await request(stack.app).get(`/catalog/series/${SECOND}`);
    expect(moved.status).toBe(200);
    expect(moved.body.meta.source).toBe(`${stack.simulator.origin}/anime/${SECOND}/`);
    expect(asked()).toEqual([`/seri/${SECOND}/`, `/seri/${FIRST}/`, `/anime/${SECOND}/`]);
    expect((await request(stack.app).get('/health/upstream')).body.paths.series.how).toBe(
      `/seri/${FIRST}/, a series page, answered 404; ${stack.simulator.origin}/anime/${SECOND}/ is a series page`,
    );

    // From now on the new path is the one asked, and the list path did not move.
    expect((await request(stack.app).get(`/catalog/series/${SERIES[2]!.slug}`)).status).toBe(200);
    expect((await request(stack.app).get('/catalog/popular-series')).status).toBe(200);
    expect(asked()).toEqual([`/anime/${SERIES[2]!.slug}/`, '/seri/?order=popular&page=1']);
  });

  it('keeps a 404 for a series that does not exist, checking the path at most once a minute', async () => {
    const stack = await instance({ simulator: { variant: 'cafe' } });
    const asked = requestLog(stack.simulator);
    expect((await request(stack.app).get(`/catalog/series/${FIRST}`)).status).toBe(200);
    asked();
    expect((await request(stack.app).get('/catalog/series/no-such-series')).status).toBe(404);
    expect((await request(stack.app).get('/catalog/series/nor-this-one')).status).toBe(404);
    expect(asked()).toEqual(['/seri/no-such-series/', `/seri/${FIRST}/`, '/seri/nor-this-one/']);
  });
});

describe('two instances on one Redis', () => {
  let redisServer: RedisServer;
  let inspector: Redis;
  let simulator: Simulator;
  beforeAll(async () => {
    [redisServer, simulator] = await Promise.all([startRedisServer(), startSimulator({ variant: 'moe' })]);
    inspector = new Redis(redisServer.url);
  });
  afterAll(async () => {
    inspector.disconnect();
    await Promise.all([redisServer.stop(), simulator.close()]);
  });

  it('what A learned, B uses without a lookup', async () => {
    const env = { REDIS_URL: redisServer.url };
    const [a, b] = [await instance({ sharedSimulator: simulator, env }), await instance({ sharedSimulator: simulator, env })];
    await untilRedisIs(async () => (await request(b.app).get('/health/upstream')).body, 'up');
    const asked = requestLog(simulator);

    expect((await request(a.app).get(`/catalog/series/${FIRST}`)).status).toBe(200);
    expect(asked()).toEqual([`/seri/${FIRST}/`, `/anime/${FIRST}/`, `/${FIRST}/`]);
    await until(async () => (await inspector.hget('upstream:paths', simulator.origin)) !== null);

    expect((await request(b.app).get(`/catalog/series/${SECOND}`)).status).toBe(200);
    expect((await request(b.app).get('/catalog/popular-series')).status).toBe(200);
    expect(asked()).toEqual([`/${SECOND}/`, '/anime/?order=popular&page=1']);
    expect((await request(b.app).get('/health/upstream')).body.paths).toMatchObject({ series: { path: '/' }, list: { path: '/anime/' } });
  });
});

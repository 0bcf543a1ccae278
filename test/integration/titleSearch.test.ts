import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlEnv, firstPassDone, until } from '../helpers/crawl.js';
import { expectErrorEnvelope } from '../helpers/errorEnvelope.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

/** The simulated site at a size where a common word fills more than one page of 20. */
const CATALOG_SIZE = 300;
const CRAWL_DEADLINE_MS = 60_000;

let stack: TestStack;

interface Card {
  title: string;
  slug: string;
  url: string;
  poster: string | null;
  type: string | null;
  status: string | null;
  sub: string | null;
}

const search = (query: string, extra = '') =>
  request(stack.app).get(`/catalog/search?q=${encodeURIComponent(query)}&source=catalog${extra}`);
const firstSlug = async (query: string) => ((await search(query)).body.data.results as Card[])[0]?.slug;

beforeAll(async () => {
  stack = await startTestStack({ simulator: { catalogSize: CATALOG_SIZE }, env: { CRAWL_ENABLED: 'true', CRAWL_INTERVAL_S: '0' } });
  // Watched from inside until the pass is done: a search every 200 ms meanwhile would be users the
  // crawler makes way for (crawler/loopYield.ts), and would slow the pass it waits for.
  await until(stack, firstPassDone, CRAWL_DEADLINE_MS);
  expect((await search('a')).body.meta.catalogComplete).toBe(true);
}, CRAWL_DEADLINE_MS + 10_000);
afterAll(() => stack?.close());

describe('GET /catalog/search?source=catalog', () => {
  // Renegade Immortal: the series page lists "Xian Ni Lu, 仙逆之路".
  it.each([
    ['its Chinese title', '仙逆之路'],
    ['part of its Chinese title', '仙逆'],
    ['its pinyin', 'xian ni lu'],
    ['its pinyin with tone marks', 'Xiān Nì Lù'],
    ['one typo', 'renegade imortal'],
    ['word prefixes', 'rene imm'],
    ['upper case', 'RENEGADE IMMORTAL'],
    ['accents', 'Rénégade Immortal'],
    ['fullwidth letters', 'ＲＥＮＥＧＡＤＥ'],
  ])('finds the series first by %s', async (_kind, query) => {
    expect(await firstSlug(query)).toBe('renegade-immortal');
  });

  it('answers series cards as the series page describes the series, in the search envelope', async () => {
    const response = await search('renegade immortal');
    expect(response.status).toBe(200);
    const detail = (await request(stack.app).get('/catalog/series/renegade-immortal')).body.data;
    const { title, slug, url, poster, type, status } = detail;
    expect(response.body.data.query).toBe('renegade immortal');
    expect(response.body.data.results[0]).toEqual({ title, slug, url, poster, type, status, sub: 'Sub' });
    expect(response.body.meta).toMatchObject({ catalogComplete: true });
  });

  it('pages 20 at a time with the same pagination as every list', async () => {
    const first = (await search('sword')).body;
    expect(first.data.results).toHaveLength(20);
    expect(first.pagination).toMatchObject({ currentPage: 1, hasPrevPage: false, prevPage: null, hasNextPage: true, nextPage: 2 });
    const second = (await search('sword', '&page=2')).body;
    expect(second.pagination).toMatchObject({ currentPage: 2, hasPrevPage: true, prevPage: 1 });
    const seen = [...first.data.results, ...second.data.results].map((card: Card) => card.slug);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('answers results: [] when nothing matches', async () => {
    const response = await search('qqzzxxkk');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ query: 'qqzzxxkk', results: [] });
    expect(response.body.pagination).toEqual({
      currentPage: 1,
      hasPrevPage: false,
      prevPage: null,
      hasNextPage: false,
      nextPage: null,
      totalPages: 1,
    });
  });

  it('answers a page past the last 404 NOT_FOUND, as the site search does', async () => {
    const last = (await search('sword')).body.pagination.totalPages;
    expect((await search('sword', `&page=${last}`)).status).toBe(200);
    for (const [query, page] of [
      ['sword', last + 1],
      ['qqzzxxkk', 2],
    ] as const) {
      const response = await search(query, `&page=${page}`);
      expect(response.status, `${query} ${page}`).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('answers a repeated search from the cache', async () => {
    const first = await search('jade');
    const again = await search('jade');
    expect(first.headers['x-cache']).toBe('MISS');
    expect(again.headers['x-cache']).toBe('HIT');
    expect(again.body).toEqual(first.body);
    expect(stack.simulator.hitCount('/?s=')).toBe(0);
  });

  it('refuses an unknown source with 400 INVALID_PARAMETER', async () => {
    const body = expectErrorEnvelope(await request(stack.app).get('/catalog/search?q=sword&source=google'), 400, 'INVALID_PARAMETER');
    expect(body.error.details).toEqual([expect.objectContaining({ field: 'source', rule: 'one of: site, catalog' })]);
  });

  it('still asks the site without source or with source=site', async () => {
    stack.simulator.resetHits();
    await request(stack.app).get('/catalog/search?q=renegade').expect(200);
    await request(stack.app).get('/catalog/search?q=renegade&source=site&page=1').expect(200);
    expect(stack.simulator.hitCount('/?s=renegade')).toBe(1);
  });
});

describe('after the site renames a series', () => {
  const SLUG = 'renegade-immortal';
  const NEW_TITLE = 'Lantern of the Ninth Abyss';
  // The Chinese name stays; the English title and the pinyin "Xian Ni Lu" are dropped.
  const NEW_ALTERNATIVES = ['Jiu Yuan Deng', '仙逆之路'];
  const UPDATE_DEADLINE_MS = 30_000;
  let renamed: TestStack;

  const slugsFound = async (query: string) => {
    const response = await request(renamed.app)
      .get(`/catalog/search?q=${encodeURIComponent(query)}&source=catalog`)
      .expect(200);
    return {
      slugs: (response.body.data.results as Card[]).map((card) => card.slug),
      cache: response.headers['x-cache'],
      first: response.body.data.results[0] as Card | undefined,
    };
  };

  /** Resolves when the local catalog takes in the entry of `slug` titled `title`: the update pass read the renamed page. */
  const entryTitled = (slug: string, title: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no update pass brought "${title}" within ${UPDATE_DEADLINE_MS} ms`)),
        UPDATE_DEADLINE_MS,
      );
      const stop = renamed.app.localCatalog.onChange((change) => {
        if (change.kind === 'upsert' && change.entry.slug === slug && change.entry.title === title) {
          clearTimeout(timer);
          stop();
          resolve();
        }
      });
    });

  beforeAll(async () => {
    // An update pass every 200 ms; the full pass (a day) never comes back within the test.
    renamed = await startTestStack({ env: crawlEnv(), crawlPasses: { updateEveryMs: 200 } });
    await until(renamed, firstPassDone);
  }, 70_000);
  afterAll(() => renamed?.close());

  it('finds it by its new names after the next update pass, and no longer by the names it dropped', async () => {
    // Before: the old names find it (their answers are now cached), the new ones do not.
    for (const query of ['renegade immortal', 'xian ni lu']) expect((await slugsFound(query)).first?.slug).toBe(SLUG);
    expect((await slugsFound('renegade immortal')).cache).toBe('HIT');
    for (const query of ['lantern ninth abyss', 'jiu yuan deng']) expect((await slugsFound(query)).slugs).not.toContain(SLUG);

    const taken = entryTitled(SLUG, NEW_TITLE);
    renamed.simulator.updateSeries(SLUG, { title: NEW_TITLE, altTitles: NEW_ALTERNATIVES });
    await taken;

    for (const query of ['Lantern of the Ninth Abyss', 'lantern ninth abyss', 'jiu yuan deng', '仙逆之路']) {
      const found = await slugsFound(query);
      expect(found.first).toMatchObject({ slug: SLUG, title: NEW_TITLE });
    }
    // The same URLs as before the rename: answered afresh, not from the cached answers of the old index.
    for (const query of ['renegade immortal', 'xian ni lu']) {
      const found = await slugsFound(query);
      expect(found.cache).toBe('MISS');
      expect(found.slugs).not.toContain(SLUG);
    }
  });
});

describe('with the crawler off', () => {
  it('answers 503 CATALOG_NOT_READY', async () => {
    const off = await startTestStack();
    try {
      const response = await request(off.app).get('/catalog/search?q=sword&source=catalog');
      expectErrorEnvelope(response, 503, 'CATALOG_NOT_READY');
      expect(response.headers['retry-after']).toMatch(/^\d+$/);
      expect(off.simulator.hitCount()).toBe(0);
    } finally {
      await off.close();
    }
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const search = (query: string, extra = '') => request(stack.app).get(`/catalog/search?q=${encodeURIComponent(query)}&source=catalog${extra}`);
const firstSlug = async (query: string) => ((await search(query)).body.data.results as Card[])[0]?.slug;

beforeAll(async () => {
  stack = await startTestStack({ simulator: { catalogSize: CATALOG_SIZE }, env: { CRAWL_ENABLED: 'true', CRAWL_INTERVAL_MS: '0' } });
  const started = Date.now();
  while ((await search('a')).body.meta?.catalogComplete !== true) {
    if (Date.now() - started > CRAWL_DEADLINE_MS) throw new Error('the crawler did not read the simulated catalog in time');
    await sleep(200);
  }
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
    expect(response.body.pagination).toMatchObject({ hasNextPage: false, totalPages: 0 });
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

import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpoints } from '../../src/catalog/endpoints/index.js';
import { AZ_LETTERS, FILTER_STATUSES, FILTER_TYPES } from '../../src/contract/browse.js';
import { successEnvelope } from '../../src/contract/schemas.js';
import { resolveCatalogRequest } from '../../src/http/catalogRequest.js';
import { seriesList } from '../simulator/catalog.js';
import * as listings from '../simulator/listings.js';
import type { PageContext } from '../simulator/pages/context.js';
import { NETWORKS, UTF8_STUDIO } from '../simulator/taxonomies.js';
import { VARIANTS, type VariantName } from '../simulator/variant.js';
import { expectedScheduleDays, expectedSeasonCards, expectedSeriesCard, firstPage } from '../helpers/listingExpectations.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// Every listing endpoint through the real app against the simulator; expected values come from
// the simulator's dataset, never from our parsers.

async function getOk(stack: TestStack, path: string, template: string) {
  const response = await request(stack.app).get(path);
  expect(response.status, response.text.slice(0, 300)).toBe(200);
  const endpoint = endpoints.find((entry) => entry.path === template);
  successEnvelope(endpoint!.data as z.ZodType)
    .strict()
    .parse(response.body);
  return response;
}

async function getError(stack: TestStack, path: string, status: number, code: string) {
  const response = await request(stack.app).get(path);
  expect(response.status, response.text.slice(0, 300)).toBe(status);
  expect(response.body.error.code).toBe(code);
  return response.body.error as { code: string; message: string; details: { field: string; rule: string; message: string }[] };
}

describe.each<[VariantName, string]>([
  ['cafe', '/seri/'],
  ['classic', '/anime/'],
])('listing endpoints against the %s variant (series path %s)', (variant, seriesPath) => {
  let stack: TestStack;
  let ctx: PageContext;
  const card = (series: Parameters<typeof expectedSeriesCard>[1], index: number) => expectedSeriesCard(ctx, series, index);

  beforeAll(async () => {
    stack = await startTestStack({ simulator: { variant } });
    const origin = stack.simulator.origin;
    ctx = { origin, host: new URL(origin).host, variant: VARIANTS[variant] };
  });
  afterAll(() => stack.close());

  it('GET /catalog/completed-series?page=2 reads /completed/page/2/', async () => {
    const { body } = await getOk(stack, '/catalog/completed-series?page=2', '/catalog/completed-series');
    expect(body.data).toEqual({ series: listings.completed(2).items.map(card) });
    expect(body.pagination).toEqual({ currentPage: 2, hasPrevPage: true, prevPage: 1, hasNextPage: true, nextPage: 3, totalPages: 3 });
    expect(body.meta.source).toBe(`${ctx.origin}/completed/page/2/`);
  });

  it('GET /catalog/genres/{slug} gives the term and its series', async () => {
    const { body } = await getOk(stack, '/catalog/genres/martial-arts', '/catalog/genres/{slug}');
    const results = listings.termListing('genres', 'martial-arts', 1);
    expect(body.data).toEqual({
      term: { name: 'Martial Arts', slug: 'martial-arts', url: `${ctx.origin}/genres/martial-arts/` },
      series: results.items.map(card),
    });
    expect(body.pagination).toEqual(firstPage(null, 1));
  });

  it('GET /catalog/networks/{slug}?page=2 reads /network/{slug}/page/2/', async () => {
    const network = NETWORKS[1]!;
    const { body } = await getOk(stack, `/catalog/networks/${network.slug}?page=2`, '/catalog/networks/{slug}');
    expect(body.data).toEqual({
      term: { name: network.name, slug: network.slug, url: `${ctx.origin}/network/${network.slug}/` },
      series: listings.termListing('network', network.slug, 2).items.map(card),
    });
    expect(body.pagination).toEqual({ currentPage: 2, hasPrevPage: true, prevPage: 1, hasNextPage: false, nextPage: null, totalPages: 2 });
    expect(body.meta.source).toBe(`${ctx.origin}/network/${network.slug}/page/2/`);
  });

  it('GET /catalog/studios/{slug} takes a percent-encoded UTF-8 slug', async () => {
    const { body } = await getOk(stack, '/catalog/studios/l%C2%B2studio', '/catalog/studios/{slug}');
    expect(body.data).toEqual({
      term: { name: UTF8_STUDIO.name, slug: 'l²studio', url: `${ctx.origin}/studio/l%c2%b2studio/` },
      series: listings.termListing('studio', UTF8_STUDIO.slug, 1).items.map(card),
    });
    expect(body.pagination).toEqual(firstPage(2, 2));
  });

  it('GET /catalog/countries/{slug} gives the country and its series', async () => {
    const { body } = await getOk(stack, '/catalog/countries/hong-kong', '/catalog/countries/{slug}');
    expect(body.data).toEqual({
      term: { name: 'Hong Kong', slug: 'hong-kong', url: `${ctx.origin}/country/hong-kong/` },
      series: listings.termListing('country', 'hong-kong', 1).items.map(card),
    });
  });

  it('GET /catalog/genres/{slug} of a genre without series is a success with series: []', async () => {
    const { body } = await getOk(stack, '/catalog/genres/josei', '/catalog/genres/{slug}');
    expect(body.data).toEqual({ term: { name: 'Josei', slug: 'josei', url: `${ctx.origin}/genres/josei/` }, series: [] });
  });

  it('GET /catalog/seasons/{slug} gives the season cards, without pagination', async () => {
    const { body } = await getOk(stack, '/catalog/seasons/summer-2022', '/catalog/seasons/{slug}');
    expect(body.data).toEqual({
      term: { name: 'Summer 2022', slug: 'summer-2022', url: `${ctx.origin}/season/summer-2022/` },
      series: expectedSeasonCards(ctx, 'summer-2022'),
    });
    expect(body.data.series.length).toBeGreaterThan(0);
    expect(body.pagination).toBeNull();
  });

  it('GET /catalog/schedule gives the week Monday first', async () => {
    const { body } = await getOk(stack, '/catalog/schedule', '/catalog/schedule');
    expect(body.data).toEqual({ days: expectedScheduleDays(ctx) });
    expect(body.pagination).toBeNull();
  });

  it('GET /catalog/az-list without a letter lists everything; with one, that letter (any case)', async () => {
    const all = await getOk(stack, '/catalog/az-list?page=2', '/catalog/az-list');
    expect(all.body.data).toEqual({ letter: null, series: listings.azList(null, 2).items.map(card) });
    expect(all.body.meta.source).toBe(`${ctx.origin}/az-lists/page/2/`);
    const letter = await getOk(stack, '/catalog/az-list?letter=s', '/catalog/az-list');
    const results = listings.azList('S', 1);
    expect(letter.body.data).toEqual({ letter: 'S', series: results.items.map(card) });
    expect(letter.body.pagination).toEqual(firstPage(2, results.totalPages));
    expect(letter.body.meta.source).toBe(`${ctx.origin}/az-lists/?show=S`);
  });

  it('GET /catalog/az-list?letter=%23 asks for the site\'s "." group; a letter without series is []', async () => {
    const { body } = await getOk(stack, '/catalog/az-list?letter=%23', '/catalog/az-list');
    expect(body.data).toEqual({ letter: '#', series: [] });
    expect(body.meta.source).toBe(`${ctx.origin}/az-lists/?show=.`);
  });

  it('GET /catalog/series filters by status, order and genres, and echoes the filters', async () => {
    const { body } = await getOk(
      stack,
      '/catalog/series?status=Ongoing&order=popular&genre=cultivation,martial-arts,cultivation',
      '/catalog/series',
    );
    const results = seriesList({ status: 'ongoing', order: 'popular', genre: ['cultivation', 'martial-arts'] }, 1);
    expect(results.totalItems).toBeGreaterThan(1);
    expect(body.data).toEqual({
      filters: { status: 'ongoing', type: null, order: 'popular', genre: ['cultivation', 'martial-arts'], season: [], studio: [] },
      series: results.items.map(card),
    });
    expect(body.meta.source).toBe(
      `${ctx.origin}${seriesPath}?status=ongoing&order=popular&genre%5B%5D=cultivation&genre%5B%5D=martial-arts&page=1`,
    );
  });

  it('GET /catalog/series filters by season, studio and type "live action"', async () => {
    const { body } = await getOk(
      stack,
      `/catalog/series?type=live%20action&season=2025,2024&studio=${encodeURIComponent(UTF8_STUDIO.slug)},bai-cg`,
      '/catalog/series',
    );
    const filter = { type: 'live action', season: ['2025', '2024'], studio: ['l²studio', 'bai-cg'] };
    expect(body.data).toEqual({
      filters: { status: null, order: null, genre: [], ...filter },
      series: seriesList(filter, 1).items.map(card),
    });
  });

  it('GET /catalog/series with a filter nothing matches is a success with series: []', async () => {
    const { body } = await getOk(stack, '/catalog/series?status=hiatus&type=movie', '/catalog/series');
    expect(body.data.series).toEqual([]);
    expect(body.data.filters).toEqual({ status: 'hiatus', type: 'movie', order: null, genre: [], season: [], studio: [] });
    expect(body.pagination).toEqual(firstPage(null, 1));
  });
});

describe('listing endpoints: errors and routing', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.close());

  it("400 for a slug outside the contract's rule", async () => {
    const error = await getError(stack, '/catalog/genres/Bad_Slug', 400, 'INVALID_PARAMETER');
    expect(error.details.map((detail) => [detail.field, detail.rule])).toEqual([['slug', 'slug']]);
  });

  it('400 for a bad letter, listing the letters allowed', async () => {
    const error = await getError(stack, '/catalog/az-list?letter=AB', 400, 'INVALID_PARAMETER');
    expect(error.details).toEqual([
      {
        field: 'letter',
        rule: `one of ${AZ_LETTERS.join(' ')}`,
        message: `letter must be one of ${AZ_LETTERS.join(' ')} (# sent as %23), or absent for the whole list`,
      },
    ]);
  });

  it('400 for a value outside an enum, naming the field and the allowed values', async () => {
    const error = await getError(stack, '/catalog/series?status=done&type=cartoon', 400, 'INVALID_PARAMETER');
    expect(error.details).toEqual([
      { field: 'status', rule: `one of: ${FILTER_STATUSES.join(', ')}`, message: `status must be one of: ${FILTER_STATUSES.join(', ')}` },
      { field: 'type', rule: `one of: ${FILTER_TYPES.join(', ')}`, message: `type must be one of: ${FILTER_TYPES.join(', ')}` },
    ]);
  });

  it('400 for more than 10 slugs in a list, and for a bad slug in one', async () => {
    const eleven = Array.from({ length: 11 }, (_, index) => `genre-${index}`).join(',');
    const tooMany = await getError(stack, `/catalog/series?genre=${eleven}`, 400, 'INVALID_PARAMETER');
    expect(tooMany.details).toEqual([{ field: 'genre', rule: 'at most 10 slugs', message: 'genre takes at most 10 slugs' }]);
    const bad = await getError(stack, '/catalog/series?studio=ok,Not%20OK', 400, 'INVALID_PARAMETER');
    expect(bad.details.map((detail) => [detail.field, detail.rule])).toEqual([['studio', 'comma-separated slugs']]);
  });

  it('404 for an unknown genre, studio, network, country or season', async () => {
    for (const path of [
      '/catalog/genres/no-such-genre',
      '/catalog/studios/no-such-studio',
      '/catalog/networks/no-such-network',
      '/catalog/countries/atlantis',
      '/catalog/seasons/1999',
    ])
      await getError(stack, path, 404, 'NOT_FOUND');
  });

  it('404 for a page past the end, whether the upstream answers 404 or an empty 200 list', async () => {
    await getError(stack, '/catalog/completed-series?page=4', 404, 'NOT_FOUND');
    await getError(stack, '/catalog/genres/martial-arts?page=2', 404, 'NOT_FOUND');
    await getError(stack, '/catalog/az-list?letter=S&page=50', 404, 'NOT_FOUND');
    // The filter list answers an empty 200 page past its end.
    await getError(stack, '/catalog/series?status=hiatus&page=5', 404, 'NOT_FOUND');
  });

  it('502 UPSTREAM_LAYOUT_CHANGED when the pages come back redesigned (a page of another kind: see the parser tests)', async () => {
    stack.simulator.setFaults([{ kind: 'layout-change' }]);
    try {
      for (const path of [
        '/catalog/genres/action',
        '/catalog/seasons/2024',
        '/catalog/schedule',
        '/catalog/az-list?letter=B',
        '/catalog/series?order=latest',
      ])
        await getError(stack, path, 502, 'UPSTREAM_LAYOUT_CHANGED');
    } finally {
      stack.simulator.clearFaults();
    }
  });

  it('routes /catalog/genres and /catalog/genres/{slug}, /catalog/series and /catalog/series/{slug} apart, on the hit path too', async () => {
    expect(resolveCatalogRequest('GET', '/catalog/genres', '')?.endpoint?.path).toBe('/catalog/genres');
    expect(resolveCatalogRequest('GET', '/catalog/genres/action', '')).toEqual({
      endpoint: expect.objectContaining({ path: '/catalog/genres/{slug}' }),
      input: { slug: 'action', page: 1 },
    });
    expect(resolveCatalogRequest('GET', '/catalog/series', '')?.endpoint?.path).toBe('/catalog/series');
    expect(resolveCatalogRequest('GET', '/catalog/series/some-series', '')?.endpoint?.path).toBe('/catalog/series/{slug}');
    for (const path of ['/catalog/genres', '/catalog/genres/action', '/catalog/series?order=title']) {
      const miss = await request(stack.app).get(path);
      const hit = await request(stack.app).get(path);
      expect([miss.status, miss.headers['x-cache'], hit.status, hit.headers['x-cache']]).toEqual([200, 'MISS', 200, 'HIT']);
      expect(hit.body).toEqual(miss.body);
    }
    const genres = await request(stack.app).get('/catalog/genres');
    expect(Object.keys(genres.body.data)).toEqual(['genres']);
  });
});

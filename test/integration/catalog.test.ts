import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpoints } from '../../src/catalog/endpoints/index.js';
import { successEnvelope } from '../../src/contract/schemas.js';
import * as sim from '../simulator/catalog.js';
import type { Series } from '../simulator/dataset.js';
import type { PageContext } from '../simulator/pages/context.js';
import { imageStyleAt, posterUrl } from '../simulator/pages/images.js';
import { VARIANTS, type VariantName } from '../simulator/variant.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// Every expected value below is computed from the simulator's dataset, not from our parsers' output.

function expectations(stack: TestStack) {
  const origin = stack.simulator.origin;
  const ctx: PageContext = { origin, host: new URL(origin).host, variant: VARIANTS[stack.simulator.variant] };
  const poster = (series: Series, index: number) => posterUrl(ctx, series.poster, imageStyleAt(ctx, index), index);
  const seriesCard = (series: Series, index: number) => ({
    title: series.title,
    slug: series.slug,
    url: `${origin}${ctx.variant.seriesBase}${series.slug}/`,
    poster: poster(series, index),
    type: series.type,
    status: series.status,
    sub: series.sub,
  });
  const episodeCard = (item: sim.EpisodeItem, index: number) => ({
    seriesTitle: item.series.title,
    episodeTitle: item.title,
    episode: item.episode,
    slug: item.path.split('/').filter(Boolean).pop(),
    url: `${origin}${item.path}`,
    poster: poster(item.series, index),
    type: item.series.type,
    sub: item.series.sub,
  });
  const ranked = (series: Series, index: number) => ({
    rank: index + 1,
    title: series.title,
    slug: series.slug,
    url: `${origin}${ctx.variant.seriesBase}${series.slug}/`,
    poster: poster(series, index),
    genres: series.genres.map(({ name, slug }) => ({ name, slug })),
    rating: series.rating,
  });
  return { origin, ctx, seriesCard, episodeCard, ranked };
}

async function getOk(stack: TestStack, path: string) {
  const response = await request(stack.app).get(path);
  expect(response.status, response.text.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const endpoint = endpoints.find((entry) => entry.path === path.split('?')[0]);
  // The body must match the contract's shapes exactly (zod), before any value is compared.
  successEnvelope(endpoint!.data as z.ZodType)
    .strict()
    .parse(response.body);
  return response;
}

describe.each<[VariantName, string]>([
  ['cafe', '/seri/'],
  ['classic', '/anime/'],
])('the six endpoints against the %s variant of the theme (series path %s)', (variant, seriesPath) => {
  let stack: TestStack;
  let expected: ReturnType<typeof expectations>;

  beforeAll(async () => {
    stack = await startTestStack({ simulator: { variant } });
    expected = expectations(stack);
  });
  afterAll(() => stack.close());

  it('GET /catalog/home gives the slider, popular today, latest releases and recommendations', async () => {
    const sentAt = Date.now();
    const { body } = await getOk(stack, '/catalog/home');
    const answeredAt = Date.now();
    const latest = sim.latestReleases(1);
    expect(body.data.slider).toEqual(
      sim.homeSlider().map((series) => ({
        title: series.title,
        slug: series.slug,
        url: `${expected.origin}${expected.ctx.variant.seriesBase}${series.slug}/`,
        banner: `${expected.origin}${series.banner ?? series.poster}`,
        synopsis: series.synopsis,
      })),
    );
    expect(body.data.popularToday).toEqual(sim.popularToday().map(expected.episodeCard));
    expect(body.data.latestRelease).toEqual(latest.items.map(expected.episodeCard));
    expect(body.data.recommendations).toEqual(
      sim.recommendations().map(({ genre, items }) => ({ genre: genre.name, items: items.map(expected.seriesCard) })),
    );
    expect(body.pagination).toEqual({
      currentPage: 1,
      hasPrevPage: false,
      prevPage: null,
      hasNextPage: true,
      nextPage: 2,
      totalPages: null,
    });
    expect(body.meta.source).toBe(`${expected.origin}/`);
    // Fetched for this request, while it was under way (to the second, if it is written in whole seconds).
    expect(Date.parse(body.meta.fetchedAt)).toBeGreaterThanOrEqual(Math.floor(sentAt / 1000) * 1000);
    expect(Date.parse(body.meta.fetchedAt)).toBeLessThanOrEqual(answeredAt);
  });

  it('GET /catalog/home?page=N reads /page/N/; on the last page totalPages is known', async () => {
    const last = sim.homeTotalPages();
    const { body } = await getOk(stack, `/catalog/home?page=${last}`);
    expect(body.data.latestRelease).toEqual(sim.latestReleases(last).items.map(expected.episodeCard));
    expect(body.data.slider).toHaveLength(sim.SLIDER_SIZE);
    expect(body.pagination).toEqual({
      currentPage: last,
      hasPrevPage: true,
      prevPage: last - 1,
      hasNextPage: false,
      nextPage: null,
      totalPages: last,
    });
    expect(body.meta.source).toBe(`${expected.origin}/page/${last}/`);
  });

  it('GET /catalog/search finds series by title, page by page, with the total', async () => {
    const hits = sim.search('a', 2);
    expect(hits.totalPages).toBeGreaterThan(2);
    const { body } = await getOk(stack, '/catalog/search?q=%20A%20&page=2');
    expect(body.data).toEqual({ query: 'a', results: hits.items.map(expected.seriesCard) });
    expect(body.pagination).toEqual({
      currentPage: 2,
      hasPrevPage: true,
      prevPage: 1,
      hasNextPage: true,
      nextPage: 3,
      totalPages: hits.totalPages,
    });
    expect(body.meta.source).toBe(`${expected.origin}/page/2/?s=a`);
  });

  it('GET /catalog/search without hits is a success with results: []', async () => {
    const { body } = await getOk(stack, '/catalog/search?q=zzzz-nothing-matches');
    expect(body.data).toEqual({ query: 'zzzz-nothing-matches', results: [] });
    expect(body.pagination).toEqual({
      currentPage: 1,
      hasPrevPage: false,
      prevPage: null,
      hasNextPage: false,
      nextPage: null,
      totalPages: 1,
    });
  });

  it('GET /catalog/search decodes titles with entities and typographic apostrophes', async () => {
    const { body } = await getOk(stack, `/catalog/search?q=${encodeURIComponent('’s')}`);
    const found = sim.search('’s', 1);
    expect(found.totalItems).toBeGreaterThan(0);
    expect(body.data.results).toEqual(found.items.map(expected.seriesCard));
  });

  it('GET /catalog/genres lists the sidebar genre widget', async () => {
    const { body } = await getOk(stack, '/catalog/genres');
    expect(body.data.genres).toEqual(
      sim.sidebarGenres().map(({ name, slug }) => ({ name, slug, url: `${expected.origin}/genres/${slug}/` })),
    );
    expect(body.pagination).toBeNull();
  });

  it('GET /catalog/ongoing-series reads /ongoing/page/N/ with numbered pagination', async () => {
    const page2 = sim.ongoing(2);
    const { body } = await getOk(stack, '/catalog/ongoing-series?page=2');
    expect(body.data.series).toEqual(page2.items.map(expected.seriesCard));
    expect(body.data.series.every((series: { status: string }) => series.status === 'Ongoing')).toBe(true);
    expect(body.pagination).toEqual({
      currentPage: 2,
      hasPrevPage: true,
      prevPage: 1,
      hasNextPage: page2.totalPages > 2,
      nextPage: page2.totalPages > 2 ? 3 : null,
      totalPages: page2.totalPages,
    });
    expect(body.meta.source).toBe(`${expected.origin}/ongoing/page/2/`);
  });

  it('GET /catalog/popular-series gives the list by popularity and the sidebar ranking', async () => {
    const { body } = await getOk(stack, '/catalog/popular-series?page=2');
    expect(body.data.series).toEqual(sim.popular(2).items.map(expected.seriesCard));
    expect(body.data.ranking).toEqual({
      weekly: sim.ranking('weekly').map(expected.ranked),
      monthly: sim.ranking('monthly').map(expected.ranked),
      allTime: sim.ranking('alltime').map(expected.ranked),
    });
    expect(body.data.ranking.weekly.some((entry: { rating: number | null }) => entry.rating === null)).toBe(true);
    // hpage links are relative query strings; resolved against the list path they give pages 1 and 3.
    expect(body.pagination).toEqual({ currentPage: 2, hasPrevPage: true, prevPage: 1, hasNextPage: true, nextPage: 3, totalPages: null });
    expect(body.meta.source).toBe(`${expected.origin}${seriesPath}?order=popular&page=2`);
  });

  it('GET /catalog/new-movie gives movies newest first and the NEW MOVIE widget with ISO dates', async () => {
    const { body } = await getOk(stack, '/catalog/new-movie');
    const movies = sim.movies(1);
    expect(body.data.movies).toEqual(movies.items.map(expected.seriesCard));
    expect(body.data.movies.every((movie: { type: string }) => movie.type === 'Movie')).toBe(true);
    expect(body.data.latest).toEqual(
      sim.newMovies().map(({ series, dateText }, index) => {
        const { rank: _rank, rating: _rating, ...movie } = expected.ranked(series, index);
        return { ...movie, releaseDate: dateText === 'TBA' ? null : series.releaseDate, releaseDateText: dateText };
      }),
    );
    expect(body.data.latest.map((movie: { releaseDateText: string }) => movie.releaseDateText)).toContain('TBA');
    expect(body.pagination).toEqual({
      currentPage: 1,
      hasPrevPage: false,
      prevPage: null,
      hasNextPage: true,
      nextPage: 2,
      totalPages: null,
    });
  });

  it('GET /catalog/new-movie?page=2 is the last page of movies', async () => {
    const { body } = await getOk(stack, '/catalog/new-movie?page=2');
    expect(body.data.movies).toEqual(sim.movies(2).items.map(expected.seriesCard));
    expect(body.pagination).toMatchObject({ currentPage: 2, hasPrevPage: true, prevPage: 1, hasNextPage: false, nextPage: null });
  });
});

describe('catalog response headers', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.close());

  it('sends CORS, cache and request-id headers on a success', async () => {
    const response = await getOk(stack, '/catalog/genres');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['x-cache']).toBe('MISS');
    expect(response.headers['age']).toBe('0');
    expect(response.headers['cache-control']).toBe('public, max-age=43200');
    expect(response.headers['etag']).toMatch(/^W\/"[\w-]{27}"$/);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.text));
  });

  it('answers a matching If-None-Match with 304 and no body, even after a refetch of unchanged data', async () => {
    const first = await getOk(stack, '/catalog/genres');
    const second = await request(stack.app)
      .get('/catalog/genres')
      .set('If-None-Match', first.headers['etag'] as string);
    expect(second.status).toBe(304);
    expect(second.text).toBe('');
    expect(second.headers['etag']).toBe(first.headers['etag']);
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await request(stack.app).head('/catalog/ongoing-series');
    expect(response.status).toBe(200);
    expect(response.headers['x-cache']).toBe('MISS');
    expect(Number(response.headers['content-length'])).toBeGreaterThan(1000);
    expect(response.text).toBeUndefined();
  });
});

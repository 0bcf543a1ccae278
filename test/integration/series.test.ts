import { load } from 'cheerio/slim';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REPORT_CENTER_PATHS } from '../../src/catalog/endpoints/index.js';
import { Episode, SeriesDetail } from '../../src/contract/series.js';
import { ErrorEnvelope, successEnvelope } from '../../src/contract/schemas.js';
import { search } from '../simulator/catalog.js';
import { SERIES, type Series } from '../simulator/dataset.js';
import { episodeSlug, episodesOf, findEpisode, type EpisodeLookup } from '../simulator/episodes.js';
import type { PageContext } from '../simulator/pages/context.js';
import { VARIANTS, type VariantName } from '../simulator/variant.js';
import { expectedEpisode, expectedSeries } from '../helpers/seriesExpectations.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// Series and episode endpoints through the real app against the simulator. Expected values come
// from the simulator's data (test/helpers/seriesExpectations.ts), never from our parsers.

function contextOf(stack: TestStack): PageContext {
  const { origin } = stack.simulator;
  return { origin, host: new URL(origin).host, variant: VARIANTS[stack.simulator.variant] };
}

function finishedSeries(): Series {
  const series = SERIES.find((item) => item.status === 'Completed' && item.type !== 'Movie' && (item.latestEpisode ?? 0) > 2);
  if (series === undefined) throw new Error('the dataset has no finished series');
  return series;
}

/** The slug of the episode at `position` of the series' list (newest first). */
function episodeAt(series: Series, position: number): string {
  const item = episodesOf(series).at(position);
  if (item === undefined) throw new Error(`${series.slug} has no episode at ${position}`);
  return episodeSlug(item);
}

function expectError(response: request.Response, status: number, code: string) {
  expect(response.status, response.text.slice(0, 300)).toBe(status);
  const body = ErrorEnvelope.parse(response.body);
  expect(body.error.code).toBe(code);
  // The Report Center names only the first six endpoints; reports about these are "Lainnya".
  expect(new URLSearchParams(body.reportUrl.split('?')[1]).get('endpoint')).toBe('other');
  return body;
}

describe.each<[VariantName, string]>([
  ['cafe', '/seri/'],
  ['classic', '/anime/'],
])('from a search result to a playable embed URL (%s install, series path %s)', (variant, seriesPath) => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ simulator: { variant } });
  });
  afterAll(() => stack.close());

  it('search → series → episode → embed', async () => {
    const ctx = contextOf(stack);
    const found = await request(stack.app).get('/catalog/search?q=emperor');
    expect(found.status).toBe(200);
    const expectedHit = search('emperor', 1).items[0] as Series;
    expect(found.body.data.results[0].slug).toBe(expectedHit.slug);

    const seriesResponse = await request(stack.app).get(`/catalog/series/${found.body.data.results[0].slug}`);
    expect(seriesResponse.status, seriesResponse.text.slice(0, 300)).toBe(200);
    const seriesBody = successEnvelope(SeriesDetail).strict().parse(seriesResponse.body);
    expect(seriesBody.data).toEqual(expectedSeries(ctx, expectedHit));
    expect(seriesBody.pagination).toBeNull();
    expect(seriesBody.meta.source).toBe(`${ctx.origin}${seriesPath}${expectedHit.slug}/`);
    expect(seriesResponse.headers['cache-control']).toBe('public, max-age=600');

    const latest = seriesBody.data.latestEpisode;
    expect(latest).not.toBeNull();
    const episodeResponse = await request(stack.app).get(`/catalog/episode/${latest?.slug}`);
    expect(episodeResponse.status, episodeResponse.text.slice(0, 300)).toBe(200);
    const episodeBody = successEnvelope(Episode).strict().parse(episodeResponse.body);
    const lookup = findEpisode(latest?.slug ?? '') as EpisodeLookup;
    expect(episodeBody.data).toEqual(expectedEpisode(ctx, lookup));
    expect(episodeBody.data.servers[0]?.url).toMatch(/^https:\/\/anichin\.stream\/\?id=\w+$/);
    expect(episodeBody.data.navigation.allEpisodes).toBe(seriesBody.data.url);
    expect(episodeResponse.headers['cache-control']).toBe('public, max-age=3600');

    // The episode's navigation leads on: its previous episode is the next one in the series' list.
    const previous = episodeBody.data.navigation.previous;
    expect(previous?.slug).toBe(seriesBody.data.episodes[1]?.slug);
  });

  it('serves a repeat from the cache', async () => {
    const series = SERIES[0] as Series;
    await request(stack.app).get(`/catalog/series/${series.slug}`);
    stack.simulator.resetHits();
    const again = await request(stack.app).get(`/catalog/series/${series.slug}`);
    expect(again.status).toBe(200);
    expect(again.headers['x-cache']).toBe('HIT');
    expect(stack.simulator.hitCount()).toBe(0);
  });
});

describe('series and episode: input, fallbacks and faults', () => {
  let stack: TestStack;

  // A fresh app (an empty cache) and simulator for every test.
  beforeEach(async () => {
    stack = await startTestStack({ env: { UPSTREAM_TIMEOUT_S: '1.5' } });
  });
  afterEach(() => stack.close());

  it.each([
    ['/catalog/series/Renegade_Immortal', 'slug'],
    ['/catalog/series/a%2Fb', 'slug'],
    [`/catalog/series/${'a'.repeat(201)}`, 'slug'],
    ['/catalog/episode/bad%20slug', 'slug'],
  ])('answers %s with 400 INVALID_PARAMETER naming the slug, without asking the upstream', async (path, field) => {
    const body = expectError(await request(stack.app).get(path), 400, 'INVALID_PARAMETER');
    expect(body.error.details.map((detail) => detail.field)).toEqual([field]);
    expect(stack.simulator.hitCount()).toBe(0);
  });

  it('accepts a percent-encoded UTF-8 slug and asks the upstream with it re-encoded', async () => {
    const response = await request(stack.app).get('/catalog/series/l%C2%B2studio');
    expectError(response, 404, 'NOT_FOUND');
    // The series path is not known yet: the series is looked up where installs of the theme put series.
    expect(stack.simulator.hits.map((hit) => hit.path)).toEqual(['/seri/l%c2%b2studio/', '/anime/l%c2%b2studio/', '/l%c2%b2studio/']);
  });

  it('answers an unknown series with 404 NOT_FOUND and does not cache it', async () => {
    for (let attempt = 1; attempt <= 2; attempt++) {
      expectError(await request(stack.app).get('/catalog/series/no-such-series'), 404, 'NOT_FOUND');
      expect(stack.simulator.hitCount('/seri/no-such-series/')).toBe(attempt);
    }
  });

  it('answers a 200 page that is not a series page with 502 UPSTREAM_LAYOUT_CHANGED, not cached', async () => {
    const series = SERIES[0] as Series;
    stack.simulator.setFaults([{ kind: 'layout-change' }]);
    for (let attempt = 1; attempt <= 2; attempt++) {
      const body = expectError(await request(stack.app).get(`/catalog/series/${series.slug}`), 502, 'UPSTREAM_LAYOUT_CHANGED');
      expect(body.reportUrl).toBe('/report?endpoint=other&category=wrong-data');
      expect(stack.simulator.hitCount(`/seri/${series.slug}/`)).toBe(attempt);
    }
    stack.simulator.clearFaults();
    expect((await request(stack.app).get(`/catalog/series/${series.slug}`)).status).toBe(200);
  });

  it('answers an episode slug that names another kind of page with 502 UPSTREAM_LAYOUT_CHANGED, not cached', async () => {
    for (let attempt = 1; attempt <= 2; attempt++) {
      expectError(await request(stack.app).get('/catalog/episode/ongoing'), 502, 'UPSTREAM_LAYOUT_CHANGED');
      expect(stack.simulator.hitCount('/ongoing/')).toBe(attempt);
    }
  });

  it("finds a finished series' last episode under its -tamat- URL when the plain slug is a 404", async () => {
    const finaleSlug = episodeAt(finishedSeries(), 0);
    expect(finaleSlug).toMatch(/-tamat-subtitle-indonesia$/);
    const plainSlug = finaleSlug.replace('-tamat-', '-');

    const response = await request(stack.app).get(`/catalog/episode/${plainSlug}`);
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    expect(response.body.data).toEqual(expectedEpisode(contextOf(stack), findEpisode(finaleSlug) as EpisodeLookup));
    expect(response.body.meta.source).toBe(`${stack.simulator.origin}/${finaleSlug}/`);
    expect(response.body.data.navigation.next).toBeNull();
    expect(stack.simulator.hits.map((hit) => hit.path)).toEqual([`/${plainSlug}/`, `/${finaleSlug}/`]);
  });

  it('tries the -tamat- URL once, then answers 404; a slug without an episode number is tried once', async () => {
    expectError(await request(stack.app).get('/catalog/episode/no-such-series-episode-07-subtitle-indonesia'), 404, 'NOT_FOUND');
    expect(stack.simulator.hits.map((hit) => hit.path)).toEqual([
      '/no-such-series-episode-07-subtitle-indonesia/',
      '/no-such-series-episode-07-tamat-subtitle-indonesia/',
    ]);
    stack.simulator.resetHits();
    expectError(await request(stack.app).get('/catalog/episode/no-such-movie-subtitle-indonesia'), 404, 'NOT_FOUND');
    expect(stack.simulator.hitCount()).toBe(1);
  });

  it('answers the first episode without "Prev" and a movie with its single episode', async () => {
    const firstBody = (await request(stack.app).get(`/catalog/episode/${episodeAt(finishedSeries(), -1)}`)).body;
    expect(firstBody.data.episode).toBe(1);
    expect(firstBody.data.navigation.previous).toBeNull();
    expect(firstBody.data.navigation.next).not.toBeNull();

    const movie = SERIES.find((item) => item.type === 'Movie' && item.status === 'Completed') as Series;
    const movieBody = (await request(stack.app).get(`/catalog/series/${movie.slug}`)).body;
    expect(movieBody.data.episodes).toHaveLength(1);
    expect(movieBody.data.episodes[0].episode).toBeNull();
    expect(movieBody.data.batches).toEqual([]);
    expect(movieBody.data.firstEpisode).toEqual(movieBody.data.latestEpisode);
  });

  it.each([
    ['a Cloudflare challenge', { kind: 'challenge' as const }, 503, 'UPSTREAM_BLOCKED', 1],
    ['a 500 after two retries', { kind: 'status' as const, status: 500 }, 502, 'UPSTREAM_ERROR', 3],
    ['a hang past the deadline', { kind: 'hang' as const }, 504, 'UPSTREAM_TIMEOUT', 1],
  ])('maps %s on a series page as on the six endpoints', async (_name, fault, status, code, fetches) => {
    // A hang never arrives, so its 504 is the deadline's whatever the deadline: an app of its own
    // whose deadline is 0.5 s answers it sooner (the others keep 1.5 s, which a page that does arrive
    // meets on a loaded machine).
    const hung = fault.kind === 'hang' ? await startTestStack({ env: { UPSTREAM_TIMEOUT_S: '0.5' } }) : undefined;
    const { app, simulator } = hung ?? stack;
    try {
      simulator.setFaults([fault]);
      const series = SERIES[1] as Series;
      expectError(await request(app).get(`/catalog/series/${series.slug}`), status, code);
      expect(simulator.hitCount()).toBe(fetches);
    } finally {
      await hung?.close();
    }
  });

  it('maps an upstream fault on an episode page the same way, without trying the -tamat- URL', async () => {
    stack.simulator.setFaults([{ kind: 'status', status: 502 }]);
    expectError(await request(stack.app).get(`/catalog/episode/${episodeAt(finishedSeries(), 1)}`), 502, 'UPSTREAM_ERROR');
    expect(stack.simulator.hits.every((hit) => !hit.path.includes('-tamat-'))).toBe(true);
  });

  it('pre-fills "Lainnya / Tidak spesifik" in the Report Center from an error of these endpoints', async () => {
    const { body } = await request(stack.app).get('/catalog/series/no-such-series');
    const page = await request(stack.app).get(body.reportUrl).set('Accept', 'text/html');
    expect(page.status).toBe(200);
    const $ = load(page.text);
    expect($('#endpoint option[selected]').attr('value')).toBe('other');
    // The drop-down keeps its eight options: the placeholder, the first six paths and "other".
    const options = $('#endpoint option')
      .map((_, el) => $(el).attr('value'))
      .get();
    expect(options).toEqual(['', ...REPORT_CENTER_PATHS, 'other']);
    expect(options).toHaveLength(8);
  });
});

describe('the API reference\'s "Coba" form for an endpoint with a path parameter', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.close());

  it('fills the path from the form with JavaScript (data-path) and, without it, through /docs/try', async () => {
    const $ = load((await request(stack.app).get('/docs')).text);
    const form = $('section:has(#catalog-series-slug) form[data-try-it]');
    expect(form.attr('data-path')).toBe('/catalog/series/{slug}');
    expect(form.attr('action')).toBe('/docs/try/catalog/series/{slug}');
    expect(form.find('input[name="slug"]').attr('value')).toBe('renegade-immortal');
    // A form without path parameters still goes straight to the endpoint.
    expect($('section:has(#catalog-search) form[data-try-it]').attr('action')).toBe('/catalog/search');
  });

  it.each([
    ['/docs/try/catalog/series/%7Bslug%7D?slug=renegade-immortal', '/catalog/series/renegade-immortal'],
    [
      '/docs/try/catalog/episode/%7Bslug%7D?slug=l%C2%B2studio-episode-01-subtitle-indonesia',
      '/catalog/episode/l%C2%B2studio-episode-01-subtitle-indonesia',
    ],
  ])('redirects %s to %s', async (path, location) => {
    const response = await request(stack.app).get(path);
    expect(response.status).toBe(303);
    expect(response.headers['location']).toBe(location);
  });

  it('knows no /docs/try page for an endpoint without path parameters, or for no endpoint', async () => {
    expect((await request(stack.app).get('/docs/try/catalog/home?page=2')).status).toBe(404);
    expect((await request(stack.app).get('/docs/try/catalog/nope/%7Bslug%7D?slug=x')).status).toBe(404);
  });
});

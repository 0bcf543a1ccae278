import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpoints } from '../../src/catalog/endpoints/index.js';
import { successEnvelope } from '../../src/contract/schemas.js';
import {
  expectedRecommendationCard,
  expectedScheduleDays,
  expectedSeasonCards,
  expectedSeriesCard,
  firstPage,
  posterOf,
} from '../helpers/listingExpectations.js';
import { expectedEpisode, expectedSeries } from '../helpers/seriesExpectations.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';
import * as sim from '../simulator/catalog.js';
import type { Series } from '../simulator/dataset.js';
import { episodeSlug, episodesOf, findEpisode } from '../simulator/episodes.js';
import * as listings from '../simulator/listings.js';
import { catalogOf, genreUrl, seriesUrl, type PageContext } from '../simulator/pages/context.js';
import { NETWORKS } from '../simulator/taxonomies.js';
import { VARIANT_NAMES } from '../simulator/variant.js';

// Every catalog endpoint and one feed of each kind, through the real app, against each theme
// profile of the simulator, from a cold start with nothing but UPSTREAM_BASE_URLS: the service
// learns the site's paths itself. Expected values come from the simulator's data, never from our parsers.

// The longest series: 600 episodes on today's site, 670 on the later snapshot.
const LONG_SERIES = 'heaven-devouring-sovereign';

async function getOk(stack: TestStack, path: string) {
  const response = await request(stack.app).get(path);
  expect(response.status, response.text.slice(0, 300)).toBe(200);
  const pathname = path.split('?')[0] ?? '';
  const endpoint = endpoints.find((entry) => new RegExp(`^${entry.path.replace('{slug}', '[^/]+')}$`).test(pathname));
  // The body must match the contract's shapes exactly (zod), before any value is compared.
  successEnvelope(endpoint!.data as z.ZodType)
    .strict()
    .parse(response.body);
  return response.body as { data: unknown; pagination: unknown };
}

describe.each(VARIANT_NAMES)('every endpoint against the %s profile', (variant) => {
  let stack: TestStack;
  let ctx: PageContext;
  const card = (series: Series, index: number) => expectedSeriesCard(ctx, series, index);
  const site = () => catalogOf(ctx);

  beforeAll(async () => {
    stack = await startTestStack({ simulator: { variant } });
    const { origin, variant: profile } = stack.simulator.pageContext();
    // The profile's own catalog, as the simulator's is before any control changes it.
    ctx = { origin, host: new URL(origin).host, variant: profile };
  });
  afterAll(() => stack.close());

  it("a series asked first, before any list: every field, at the page's canonical URL", async () => {
    const series = site().find(LONG_SERIES)!;
    const { data } = await getOk(stack, `/catalog/series/${LONG_SERIES}`);
    expect(data).toEqual(expectedSeries(ctx, series));
    expect((data as { episodes: unknown[] }).episodes).toHaveLength(variant === 'moe' ? 670 : 600);
  });

  it("an episode: servers, navigation and the series' list", async () => {
    const series = site().find(LONG_SERIES)!;
    const item = episodesOf(series)[2]!;
    const { data } = await getOk(stack, `/catalog/episode/${episodeSlug(item)}`);
    expect(data).toEqual(expectedEpisode(ctx, findEpisode(episodeSlug(item), site())!));
  });

  it('home: slider, popular today, latest releases and recommendations', async () => {
    const { data, pagination } = await getOk(stack, '/catalog/home');
    expect(data).toEqual({
      slider: sim.homeSlider(site()).map((series) => ({
        title: series.title,
        slug: series.slug,
        url: seriesUrl(ctx, series),
        banner: `${ctx.origin}${series.banner ?? series.poster}`,
        synopsis: series.synopsis,
      })),
      popularToday: sim.popularToday(site()).map((item, index) => episodeCard(ctx, item, index)),
      latestRelease: sim.latestReleases(1, site()).items.map((item, index) => episodeCard(ctx, item, index)),
      recommendations: sim.recommendations(site()).map(({ genre, items }) => ({
        genre: genre.name,
        items: items.map((series, index) => expectedRecommendationCard(ctx, series, index)),
      })),
    });
    expect(pagination).toEqual(firstPage(2, null));
  });

  it('search, ongoing, completed, A–Z and the filter list', async () => {
    const search = sim.search('the', 2, site());
    expect((await getOk(stack, '/catalog/search?q=the&page=2')).data).toEqual({ query: 'the', results: search.items.map(card) });
    expect((await getOk(stack, '/catalog/ongoing-series?page=2')).data).toEqual({ series: sim.ongoing(2, site()).items.map(card) });
    expect((await getOk(stack, '/catalog/completed-series?page=2')).data).toEqual({
      series: listings.completed(2, site()).items.map(card),
    });
    expect((await getOk(stack, '/catalog/az-list?letter=s')).data).toEqual({
      letter: 'S',
      series: listings.azList('S', 1, site()).items.map(card),
    });
    const filtered = sim.seriesList({ status: 'ongoing', order: 'popular', genre: ['cultivation'] }, 1, site());
    expect(filtered.totalItems).toBeGreaterThan(1);
    const { data } = await getOk(stack, '/catalog/series?status=ongoing&order=popular&genre=cultivation');
    expect((data as { series: unknown }).series).toEqual(filtered.items.map(card));
  });

  it('popular series with the ranking, and new movies with the NEW MOVIE widget', async () => {
    const ranked = (range: sim.RankingRange) =>
      sim.ranking(range, site()).map((series, index) => ({
        rank: index + 1,
        title: series.title,
        slug: series.slug,
        url: seriesUrl(ctx, series),
        poster: posterOf(ctx, series, index),
        genres: series.genres.map(({ name, slug }) => ({ name, slug })),
        rating: series.rating === null ? null : Number(series.rating.toFixed(2)),
      }));
    expect((await getOk(stack, '/catalog/popular-series?page=2')).data).toEqual({
      series: sim.popular(2, site()).items.map(card),
      ranking: { weekly: ranked('weekly'), monthly: ranked('monthly'), allTime: ranked('alltime') },
    });
    expect((await getOk(stack, '/catalog/new-movie')).data).toEqual({
      movies: sim.movies(1, site()).items.map(card),
      latest: sim.newMovies(site()).map(({ series, dateText }, index) => ({
        title: series.title,
        slug: series.slug,
        url: seriesUrl(ctx, series),
        poster: posterOf(ctx, series, index),
        genres: series.genres.map(({ name, slug }) => ({ name, slug })),
        releaseDate: dateText === 'TBA' ? null : series.releaseDate,
        releaseDateText: dateText,
      })),
    });
  });

  it('genres, and the genre, studio, network, country and season pages, and the schedule', async () => {
    expect((await getOk(stack, '/catalog/genres')).data).toEqual({
      genres: sim.sidebarGenres().map((genre) => ({ name: genre.name, slug: genre.slug, url: genreUrl(ctx, genre) })),
    });
    const term = (base: string, name: string, slug: string) => ({ name, slug, url: `${ctx.origin}${base}${slug}/` });
    expect((await getOk(stack, '/catalog/genres/martial-arts')).data).toEqual({
      term: term('/genres/', 'Martial Arts', 'martial-arts'),
      series: listings.termListing('genres', 'martial-arts', 1, site()).items.map(card),
    });
    const network = NETWORKS[1]!;
    expect((await getOk(stack, `/catalog/networks/${network.slug}`)).data).toEqual({
      term: term('/network/', network.name, network.slug),
      series: listings.termListing('network', network.slug, 1, site()).items.map(card),
    });
    expect((await getOk(stack, '/catalog/countries/hong-kong')).data).toEqual({
      term: term('/country/', 'Hong Kong', 'hong-kong'),
      series: listings.termListing('country', 'hong-kong', 1, site()).items.map(card),
    });
    const studio = listings.findTerm('studio', 'tian-animation')!;
    expect((await getOk(stack, `/catalog/studios/${studio.slug}`)).data).toEqual({
      term: term('/studio/', studio.name, studio.slug),
      series: listings.termListing('studio', studio.slug, 1, site()).items.map(card),
    });
    expect((await getOk(stack, '/catalog/seasons/summer-2022')).data).toEqual({
      term: term('/season/', 'Summer 2022', 'summer-2022'),
      series: expectedSeasonCards(ctx, 'summer-2022'),
    });
    expect((await getOk(stack, '/catalog/schedule')).data).toEqual({ days: expectedScheduleDays(ctx) });
  });

  it("one feed of each kind: latest episodes, a series' episodes, new movies", async () => {
    const latest = await request(stack.app).get('/feeds/latest.json');
    expect(latest.status).toBe(200);
    expect((JSON.parse(latest.text) as { items: { url: string }[] }).items.map((item) => item.url)).toEqual(
      sim.latestReleases(1, site()).items.map((item) => `${ctx.origin}${item.path}`),
    );
    const series = await request(stack.app).get(`/feeds/series/${LONG_SERIES}.json`);
    expect(series.status).toBe(200);
    const newest = episodesOf(site().find(LONG_SERIES)!).slice(0, 50);
    expect((JSON.parse(series.text) as { items: { url: string }[] }).items.map((item) => item.url)).toEqual(
      newest.map((item) => `${ctx.origin}${item.path}`),
    );
    const movies = await request(stack.app).get('/feeds/movies.json');
    expect(movies.status).toBe(200);
    expect((JSON.parse(movies.text) as { items: { url: string }[] }).items.map((item) => item.url)).toEqual(
      sim.movies(1, site()).items.map((movie) => seriesUrl(ctx, movie)),
    );
  });
});

function episodeCard(ctx: PageContext, item: sim.EpisodeItem, index: number) {
  return {
    seriesTitle: item.series.title,
    episodeTitle: item.title,
    episode: item.episode,
    slug: episodeSlug(item),
    url: `${ctx.origin}${item.path}`,
    poster: posterOf(ctx, item.series, index),
    type: item.series.type,
    sub: item.series.sub,
  };
}

import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../helpers/testApp.js';
import { SERIES } from '../simulator/dataset.js';
import { episodeSlug, episodesOf } from '../simulator/episodes.js';
import { startSimulator, type Simulator } from '../simulator/server.js';
import type { VariantName } from '../simulator/variant.js';

// One origin per answer. The site is read at 127.0.0.1 while its pages name their own domain
// 0.0.0.0 in every absolute link, canonical and home link included: a mirror, or a site that moved
// and still prints its old address. Every link into the site in every answer names the origin
// the page was read from.

const AIRED = SERIES.find((series) => series.status === 'Ongoing' && episodesOf(series).length > 1)!;
const SLUG = AIRED.slug;
const EPISODE = episodeSlug(episodesOf(AIRED)[1]!);

describe.each<VariantName>(['cafe', 'classic'])('the %s profile read through another address than the one its pages name', (profile) => {
  let simulator: Simulator;
  let stack: TestStack;
  let served: string;
  let named: string;
  beforeAll(async () => {
    simulator = await startSimulator({ variant: profile, host: '0.0.0.0' });
    named = simulator.origin;
    served = named.replace('0.0.0.0', '127.0.0.1');
    stack = await startTestStack({ sharedSimulator: simulator, env: { UPSTREAM_BASE_URLS: served } });
  });
  afterAll(async () => {
    await stack.close();
    await simulator.close();
  });

  it.each([
    '/catalog/home',
    '/catalog/search?q=soul',
    '/catalog/popular-series',
    '/catalog/ongoing-series',
    `/catalog/series/${SLUG}`,
    `/catalog/episode/${EPISODE}`,
    '/catalog/genres',
    '/catalog/series?status=ongoing',
    `/feeds/series/${SLUG}.json`,
    '/feeds/latest.atom',
  ])('%s names only the origin it read', async (path) => {
    const response = await request(stack.app).get(path).set('Host', 'api.test');
    expect(response.status).toBe(200);
    expect(response.text).not.toContain(named);
    expect(response.text).toContain(`${served}/`);
  });

  it('gives the series and the episode the URL the site names as theirs, on the origin read', async () => {
    const series = (await request(stack.app).get(`/catalog/series/${SLUG}`)).body.data;
    expect(series.url).toBe(`${served}${profile === 'cafe' ? '/seri/' : '/anime/'}${SLUG}/`);
    const episode = (await request(stack.app).get(`/catalog/episode/${EPISODE}`)).body.data;
    expect(episode.url).toBe(`${served}/${EPISODE}/`);
  });
});

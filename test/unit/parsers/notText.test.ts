import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type AnyEndpoint } from '../../../src/catalog/endpoints/index.js';
import type { SeriesDetail } from '../../../src/contract/series.js';
import type { HomeData } from '../../../src/contract/schemas.js';
import { notTextIn, stringsIn } from '../../helpers/notText.js';
import { startSimulator, type Simulator } from '../../simulator/server.js';
import { RAW_NOT_TEXT, REFERENCED_NOT_TEXT } from '../../simulator/pages/notText.js';
import { VARIANTS } from '../../simulator/variant.js';

// Every parser (one per endpoint of the table, so a new endpoint is covered or fails here), on the
// simulator's page of its kind with control characters and noncharacters in every text, raw and as
// references (the `not-text` fault): the answer is the clean page's, field for field, and no string
// in it holds such a character.

describe.each(['cafe', 'classic', 'moe', 'sister'] as const)('every parser on %s pages with characters that are not text', (variant) => {
  let simulator: Simulator;
  let inputs: Map<string, Record<string, unknown>>;

  async function page(path: string, dirty: boolean): Promise<{ status: number; html: string; url: string }> {
    simulator.setFaults(dirty ? [{ kind: 'not-text' }] : []);
    const response = await fetch(`${simulator.origin}${path}`);
    return { status: response.status, html: await response.text(), url: response.url };
  }

  const upstreamPath = (endpoint: AnyEndpoint, input: Record<string, unknown>) =>
    endpoint.upstreamPath(input as never, { seriesPath: VARIANTS[variant].seriesBase, listPath: VARIANTS[variant].listPath });

  async function parsedPair(endpoint: AnyEndpoint, input: Record<string, unknown>) {
    const path = upstreamPath(endpoint, input);
    const clean = await page(path, false);
    const dirty = await page(path, true);
    expect([clean.status, dirty.status]).toEqual([200, 200]);
    return {
      dirtyHtml: dirty.html,
      clean: endpoint.parse(clean.html, clean.url, input as never),
      dirty: endpoint.parse(dirty.html, dirty.url, input as never),
    };
  }

  const byPath = (path: string) => endpoints.find((entry) => entry.path === path)!;
  const inputOf = (path: string, given: Record<string, unknown>) => byPath(path).input.parse(given);

  beforeAll(async () => {
    simulator = await startSimulator({ variant });
    // Slugs the simulator really has, read off its own clean pages.
    const home = await parsedPair(byPath('/catalog/home'), inputOf('/catalog/home', {}));
    const { slider, latestRelease } = home.clean.data as HomeData;
    // A series whose terms all have pages listing it (the simulator's movies name a season that lists none).
    let seriesSlug = '';
    let series: SeriesDetail | undefined;
    for (const candidate of slider) {
      const detail = (await parsedPair(byPath('/catalog/series/{slug}'), inputOf('/catalog/series/{slug}', { slug: candidate.slug }))).clean
        .data as SeriesDetail;
      const seasonPage = await page(upstreamPath(byPath('/catalog/seasons/{slug}'), { slug: detail.season?.slug ?? '' }), false);
      if (
        detail.studios.length > 0 &&
        detail.networks.length > 0 &&
        seasonPage.status === 200 &&
        seasonPage.html.includes('class="card"')
      ) {
        [seriesSlug, series] = [candidate.slug, detail];
        break;
      }
    }
    if (series === undefined) throw new Error('no series with every term');
    const given: Record<string, Record<string, unknown>> = {
      '/catalog/home': { page: 2 },
      '/catalog/search': { q: 'the' },
      '/catalog/genres': {},
      '/catalog/ongoing-series': { page: 2 },
      '/catalog/popular-series': {},
      '/catalog/new-movie': {},
      '/catalog/series/{slug}': { slug: seriesSlug },
      '/catalog/episode/{slug}': { slug: latestRelease[0]!.slug },
      '/catalog/genres/{slug}': { slug: series.genres[0]!.slug },
      '/catalog/studios/{slug}': { slug: series.studios[0]!.slug },
      '/catalog/networks/{slug}': { slug: series.networks[0]!.slug },
      '/catalog/countries/{slug}': { slug: series.country!.slug },
      '/catalog/seasons/{slug}': { slug: series.season!.slug },
      '/catalog/completed-series': {},
      '/catalog/schedule': {},
      '/catalog/az-list': { letter: 'S' },
      '/catalog/series': { status: 'ongoing', order: 'update', page: 2 },
    };
    inputs = new Map(Object.entries(given).map(([path, input]) => [path, inputOf(path, input)]));
  });
  afterAll(() => simulator.close());

  it('has a page for every endpoint of the table', () => {
    expect(endpoints.map((entry) => entry.path).filter((path) => !inputs.has(path))).toEqual([]);
  });

  it.each(endpoints.map((entry) => [entry.path, entry] as const))(
    '%s: the clean page’s answer, no such character left',
    async (_path, endpoint) => {
      const { dirtyHtml, clean, dirty } = await parsedPair(endpoint, inputs.get(endpoint.path)!);
      // The fault really put them in, raw and as references.
      expect(dirtyHtml).toContain(RAW_NOT_TEXT);
      expect(dirtyHtml).toContain(REFERENCED_NOT_TEXT);
      expect(notTextIn(clean)).toEqual([]);
      expect(stringsIn(clean.data).length).toBeGreaterThan(5);
      expect(notTextIn(dirty)).toEqual([]);
      expect(dirty).toEqual(clean);
    },
  );
});

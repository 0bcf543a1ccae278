import { describe, expect, it } from 'vitest';
import { LayoutChangedError } from '../../../src/parsers/errors.js';
import { parseSeriesPage } from '../../../src/parsers/seriesPage.js';
import { SERIES, type Series } from '../../simulator/dataset.js';
import { seriesInfo } from '../../simulator/episodes.js';
import { expectedSeries } from '../../helpers/seriesExpectations.js';
import { seriesUrl, type PageContext } from '../../simulator/pages/context.js';
import { homePage, homePageUrl } from '../../simulator/pages/homePage.js';
import { redesign } from '../../simulator/pages/redesign.js';
import { seriesPage } from '../../simulator/pages/seriesPage.js';
import { VARIANT_NAMES, VARIANTS, type VariantName } from '../../simulator/variant.js';
import { expectFixtureError, loadFixture } from './fixture.js';

describe('parseSeriesPage on hand-written pages', () => {
  it.each(['ongoing', 'classic-completed', 'moe-indonesian'])('%s: every field', (name) => {
    const fixture = loadFixture('series', name);
    expect(parseSeriesPage(fixture.html, fixture.pageUrl).data).toEqual(fixture.expected);
  });

  it('keeps the sidebar genres and the SEO blurbs out', () => {
    const fixture = loadFixture('series', 'ongoing');
    const { data } = parseSeriesPage(fixture.html, fixture.pageUrl);
    expect(data.genres.map((genre) => genre.slug)).toEqual(['action', 'cultivation', 'xianxia']);
    expect(data.synopsis).not.toContain('Nonton');
  });

  it('refuses a 200 page that is not a series page', () => {
    const fixture = loadFixture('series', 'not-a-series');
    expectFixtureError(fixture, () => parseSeriesPage(fixture.html, fixture.pageUrl));
  });
});

function contextFor(variant: VariantName): PageContext {
  return { origin: 'http://127.0.0.1:41234', host: '127.0.0.1:41234', variant: VARIANTS[variant] };
}

const pick = (description: string, match: (series: Series) => boolean): [string, Series] => {
  const series = SERIES.find(match);
  if (series === undefined) throw new Error(`the dataset has no ${description}`);
  return [description, series];
};

// The variants the issue names, each on a series of the dataset that has it.
const CASES: [string, Series][] = [
  pick('long ongoing series declaring fewer episodes than it lists', (s) => s.status === 'Ongoing' && (s.latestEpisode ?? 0) > 52),
  pick(
    'finished series with batches and a -tamat- finale',
    (s) => s.status === 'Completed' && s.type !== 'Movie' && s.latestEpisode !== null,
  ),
  pick('movie with a single episode', (s) => s.type === 'Movie' && s.status === 'Completed'),
  pick('upcoming series without episodes', (s) => s.status === 'Upcoming' && s.type !== 'Movie'),
  pick('series without a cover, type or sub badge', (s) => s.banner === null && (s.type === null || s.sub === null)),
  pick(
    'series without Network, Season or Trailer rows',
    (s) => seriesInfo(s).networks.length === 0 && seriesInfo(s).season === null && seriesInfo(s).trailer === null,
  ),
];

describe.each(VARIANT_NAMES)('parseSeriesPage on simulated %s pages', (variant) => {
  const ctx = contextFor(variant);

  it.each(CASES)('%s', (_description, series) => {
    const parsed = parseSeriesPage(seriesPage(ctx, series), seriesUrl(ctx, series));
    expect(parsed.data).toEqual(expectedSeries(ctx, series));
  });

  it('gives the declared count and the full list apart', () => {
    const [, series] = CASES[0] as [string, Series];
    const { data } = parseSeriesPage(seriesPage(ctx, series), seriesUrl(ctx, series));
    expect(data.episodeCount).toBe(52);
    expect(data.episodes).toHaveLength(series.latestEpisode ?? 0);
    expect(data.episodes.at(-1)?.episode).toBe(1);
  });

  it('refuses the same page after a redesign, and a page of another kind', () => {
    const series = CASES[0]?.[1] as Series;
    expect(() => parseSeriesPage(redesign(seriesPage(ctx, series)), seriesUrl(ctx, series))).toThrow(LayoutChangedError);
    expect(() => parseSeriesPage(homePage(ctx, 1), homePageUrl(ctx, 1))).toThrow('series page: could not find title, info');
  });
});

import { describe, expect, it } from 'vitest';
import type { SeriesDetail } from '../../../src/contract/series.js';
import { LayoutChangedError } from '../../../src/parsers/errors.js';
import { parseSeriesPage } from '../../../src/parsers/seriesPage.js';
import type { Term } from '../../simulator/dataset.js';
import { SERIES, type Series } from '../../simulator/dataset.js';
import { batchesOf, episodeSlug, episodesOf, longDate, seriesInfo, shortDate, siteDate, siteDatetime } from '../../simulator/episodes.js';
import type { EpisodeItem } from '../../simulator/catalog.js';
import { seriesUrl, type PageContext } from '../../simulator/pages/context.js';
import { homePage, homePageUrl } from '../../simulator/pages/homePage.js';
import { imageStyleAt, posterUrl } from '../../simulator/pages/images.js';
import { redesign } from '../../simulator/pages/redesign.js';
import { CLASSIC_EXTRA_ROWS, seriesPage, seriesPosterIndex, synopsisParagraphs } from '../../simulator/pages/seriesPage.js';
import { VARIANTS, type VariantName } from '../../simulator/variant.js';
import { expectFixtureError, loadFixture } from './fixture.js';

describe('parseSeriesPage on hand-written pages', () => {
  it.each(['ongoing', 'classic-completed'])('%s: every field', (name) => {
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

/** What the simulated series page shows, computed from the simulator's data, not from our parser. */
export function expectedSeries(ctx: PageContext, series: Series): SeriesDetail {
  const info = seriesInfo(series);
  const episodes = episodesOf(series);
  const term = (base: string) => (item: Term) => ({ name: item.name, slug: item.slug, url: `${ctx.origin}${base}${item.slug}/` });
  const ref = (item: EpisodeItem | undefined) => (item === undefined ? null : { episode: item.episode, slug: episodeSlug(item), url: `${ctx.origin}${item.path}` });
  const index = seriesPosterIndex(series);
  return {
    title: series.title,
    slug: series.slug,
    url: seriesUrl(ctx, series),
    alternativeTitle: series.altTitles.length > 0 ? series.altTitles.join(', ') : null,
    poster: posterUrl(ctx, series.poster, imageStyleAt(ctx, index), index),
    banner: series.banner === null ? null : `${ctx.origin}${series.banner}`,
    synopsis: synopsisParagraphs(series).join('\n\n'),
    status: series.status,
    type: series.type,
    rating: series.rating,
    trailer: info.trailer,
    followers: info.followers,
    networks: info.networks.map(term('/network/')),
    studios: info.studios.map(term('/studio/')),
    season: info.season === null ? null : term('/season/')(info.season),
    country: term('/country/')(info.country),
    released: shortDate(info.released),
    releaseDate: info.released,
    duration: info.duration,
    episodeCount: info.declaredEpisodes,
    publishedAt: siteDatetime(info.publishedAt),
    updatedAt: siteDatetime(series.updatedAt),
    genres: series.genres.map(term('/genres/')),
    tags: info.tags.map(term('/tag/')),
    otherInfo: ctx.variant.name === 'classic' ? CLASSIC_EXTRA_ROWS.map(([label, value]) => ({ label, value })) : [],
    firstEpisode: ref(episodes.at(-1)),
    latestEpisode: ref(episodes[0]),
    episodes: episodes.map((item) => ({
      episode: item.episode,
      title: item.title,
      slug: episodeSlug(item),
      url: `${ctx.origin}${item.path}`,
      sub: series.sub,
      releaseDate: siteDate(item.publishedAt),
      releaseDateText: longDate(siteDate(item.publishedAt)),
    })),
    batches: batchesOf(series),
  };
}

const pick = (description: string, match: (series: Series) => boolean): [string, Series] => {
  const series = SERIES.find(match);
  if (series === undefined) throw new Error(`the dataset has no ${description}`);
  return [description, series];
};

// The variants the issue names, each on a series of the dataset that has it.
const CASES: [string, Series][] = [
  pick('long ongoing series declaring fewer episodes than it lists', (s) => s.status === 'Ongoing' && (s.latestEpisode ?? 0) > 52),
  pick('finished series with batches and a -tamat- finale', (s) => s.status === 'Completed' && s.type !== 'Movie' && s.latestEpisode !== null),
  pick('movie with a single episode', (s) => s.type === 'Movie' && s.status === 'Completed'),
  pick('upcoming series without episodes', (s) => s.status === 'Upcoming' && s.type !== 'Movie'),
  pick('series without a cover, type or sub badge', (s) => s.banner === null && (s.type === null || s.sub === null)),
  pick('series without Network, Season or Trailer rows', (s) => seriesInfo(s).networks.length === 0 && seriesInfo(s).season === null && seriesInfo(s).trailer === null),
];

describe.each(['cafe', 'classic'] as const)('parseSeriesPage on simulated %s pages', (variant) => {
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

import { describe, expect, it } from 'vitest';
import { SERIES } from '../../simulator/dataset.js';
import { episodeSlug, episodesOf, findEpisode, findSeries } from '../../simulator/episodes.js';
import { resolveRoute } from '../../simulator/router.js';
import { VARIANT_NAMES, VARIANTS, type VariantName } from '../../simulator/variant.js';

const route = (path: string, variant: VariantName = 'cafe') => resolveRoute(new URL(path, 'http://127.0.0.1:4000'), VARIANTS[variant]);

describe('the simulator routes series and episode pages', () => {
  it('maps /{slug}-subtitle-indonesia/ to the episode on every profile', () => {
    for (const variant of VARIANT_NAMES)
      expect(route('/the-emperors-tomb-episode-07-subtitle-indonesia/', variant)).toEqual({
        kind: 'episode',
        slug: 'the-emperors-tomb-episode-07-subtitle-indonesia',
        server: 1,
      });
  });

  it.each<[VariantName, string, string[]]>([
    ['cafe', '/seri/the-emperors-tomb/', ['/anime/the-emperors-tomb/', '/the-emperors-tomb/']],
    ['classic', '/anime/the-emperors-tomb/', ['/seri/the-emperors-tomb/', '/the-emperors-tomb/']],
    ['moe', '/the-emperors-tomb/', ['/seri/the-emperors-tomb/', '/anime/the-emperors-tomb/']],
    ['sister', '/anime/the-emperors-tomb/', ['/seri/the-emperors-tomb/', '/the-emperors-tomb/']],
  ])('on %s, a series lives at %s and the other series paths are 404', (variant, path, others) => {
    expect(route(path, variant)).toEqual({ kind: 'series', slug: 'the-emperors-tomb' });
    for (const other of others) expect(route(other, variant)).toEqual({ kind: 'notFound' });
  });

  it("serves the list at the profile's list path and at /anime/, which the theme's View All links hard-code", () => {
    expect(route('/seri?status=ongoing', 'cafe')).toMatchObject({ kind: 'seriesList', listPath: '/seri/' });
    expect(route('/anime/', 'cafe')).toMatchObject({ kind: 'seriesList', listPath: '/anime/' });
    expect(route('/anime', 'moe')).toMatchObject({ kind: 'seriesList', listPath: '/anime/' });
    expect(route('/seri/', 'moe')).toEqual({ kind: 'notFound' });
    expect(route('/seri/', 'sister')).toEqual({ kind: 'notFound' });
  });

  it('on moe, archives keep their paths beside the root series pages', () => {
    expect(route('/completed/', 'moe')).toEqual({ kind: 'completed', page: 1 });
    expect(route('/schedule/', 'moe')).toEqual({ kind: 'schedule' });
    expect(route('/ongoing/', 'moe')).toEqual({ kind: 'ongoing', page: 1 });
    expect(route('/az-lists/', 'moe')).toEqual({ kind: 'azList', letter: null, page: 1 });
  });

  it('serves the video-server pages {episode}/v/N/ only where server options are links', () => {
    expect(route('/the-emperors-tomb-episode-07-subtitle-indonesia/v/3/', 'sister')).toEqual({
      kind: 'episode',
      slug: 'the-emperors-tomb-episode-07-subtitle-indonesia',
      server: 3,
    });
    expect(route('/the-emperors-tomb-episode-07-subtitle-indonesia/v/3/', 'cafe')).toEqual({ kind: 'notFound' });
  });

  it('redirects a missing trailing slash as WordPress does, keeping the query', () => {
    expect(route('/seri/the-emperors-tomb?ref=x')).toEqual({ kind: 'redirect', location: '/seri/the-emperors-tomb/?ref=x' });
    expect(route('/the-emperors-tomb?ref=x', 'moe')).toEqual({ kind: 'redirect', location: '/the-emperors-tomb/?ref=x' });
  });

  it('knows every episode of every series by its slug, and nothing else', () => {
    for (const series of SERIES) {
      expect(findSeries(series.slug)).toBe(series);
      for (const item of episodesOf(series)) expect(findEpisode(episodeSlug(item))?.item).toEqual(item);
    }
    expect(findSeries('no-such-series')).toBeNull();
    expect(findEpisode('the-emperors-tomb-episode-52-subtitle-indonesia')).toBeNull();
    expect(findEpisode('the-emperors-tomb-episode-52-tamat-subtitle-indonesia')?.index).toBe(0);
  });

  it('lists a movie as one post, an upcoming series as none, and numbers the rest 1 … latest, newest first', () => {
    const movie = SERIES.find((series) => series.type === 'Movie' && series.status === 'Completed');
    expect(episodesOf(movie!).map((item) => item.episode)).toEqual([null]);
    const upcoming = SERIES.find((series) => series.status === 'Upcoming');
    expect(episodesOf(upcoming!)).toEqual([]);
    const tomb = findSeries('the-emperors-tomb')!;
    expect(episodesOf(tomb).map((item) => item.episode)).toEqual(Array.from({ length: 52 }, (_, index) => 52 - index));
  });
});

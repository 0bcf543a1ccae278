import { describe, expect, it } from 'vitest';
import { SERIES } from '../../simulator/dataset.js';
import { episodeSlug, episodesOf, findEpisode, findSeries } from '../../simulator/episodes.js';
import { resolveRoute } from '../../simulator/router.js';

const route = (path: string) => resolveRoute(new URL(path, 'http://127.0.0.1:4000'));

describe('the simulator routes series and episode pages', () => {
  it('maps /seri/{slug}/ and /anime/{slug}/ to the series, and /{slug}-subtitle-indonesia/ to the episode', () => {
    expect(route('/seri/the-emperors-tomb/')).toEqual({ kind: 'series', slug: 'the-emperors-tomb' });
    expect(route('/anime/the-emperors-tomb/')).toEqual({ kind: 'series', slug: 'the-emperors-tomb' });
    expect(route('/the-emperors-tomb-episode-07-subtitle-indonesia/')).toEqual({ kind: 'episode', slug: 'the-emperors-tomb-episode-07-subtitle-indonesia' });
  });

  it('redirects a missing trailing slash as WordPress does, keeping the query', () => {
    expect(route('/seri/the-emperors-tomb?ref=x')).toEqual({ kind: 'redirect', location: '/seri/the-emperors-tomb/?ref=x' });
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

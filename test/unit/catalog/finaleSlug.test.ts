import { describe, expect, it } from 'vitest';
import { finaleSlug } from '../../../src/catalog/endpoints/series.js';

describe("finaleSlug: the -tamat- URL the site gives a finished series' last episode", () => {
  it.each([
    ['renegade-immortal-episode-52-subtitle-indonesia', 'renegade-immortal-episode-52-tamat-subtitle-indonesia'],
    [
      'the-success-of-empyrean-xuan-emperor-episode-248-season-5-subtitle-indonesia',
      'the-success-of-empyrean-xuan-emperor-episode-248-tamat-season-5-subtitle-indonesia',
    ],
    ['swallowed-star-episode-07', 'swallowed-star-episode-07-tamat'],
  ])('%s → %s', (slug, finale) => {
    expect(finaleSlug(slug)).toBe(finale);
  });

  it.each([
    'renegade-immortal-episode-52-tamat-subtitle-indonesia',
    'the-black-troop-movie-the-rule-of-burning-sun-subtitle-indonesia',
    'tamat-episode-3',
  ])('has none for %s (already a finale, or no episode number)', (slug) => {
    expect(finaleSlug(slug)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { parseHomePage } from '../../../src/parsers/homePage.js';
import { expectFixtureError, loadFixture } from './fixture.js';

describe('parseHomePage', () => {
  it.each(['page1', 'page2', 'classic', 'moe-recommendation'])('parses the %s fixture field by field', (name) => {
    const fixture = loadFixture('home', name);
    expect(parseHomePage(fixture.html, fixture.pageUrl)).toEqual(fixture.expected);
  });

  it('keeps Popular Today cards, ads and sidebar cards out of the latest releases', () => {
    const fixture = loadFixture('home', 'page1');
    const { latestRelease, popularToday } = parseHomePage(fixture.html, fixture.pageUrl).data;
    expect(latestRelease.map((card) => card.slug)).toEqual([
      'perfect-world-episode-210-subtitle-indonesia',
      'a-record-of-a-mortals-journey-to-immortality-episode-145-tamat-subtitle-indonesia',
      'shrouding-the-heavens-episode-88-subtitle-indonesia',
      'sword-and-fairy-episode-40-subtitle-indonesia',
    ]);
    expect(popularToday).toHaveLength(3);
  });

  it.each(['past-end', 'cards-renamed', 'layout-changed'])('throws the error the %s fixture names', (name) => {
    const fixture = loadFixture('home', name);
    expectFixtureError(fixture, () => parseHomePage(fixture.html, fixture.pageUrl));
  });
});

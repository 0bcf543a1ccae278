import { describe, expect, it } from 'vitest';
import { parseSeasonPage } from '../../../src/parsers/seasonPage.js';
import { expectFixtureError, loadFixture } from './fixture.js';

describe('parseSeasonPage', () => {
  it('parses the season cards field by field, one-span and two-span stats, unrated and sparse cards', () => {
    const fixture = loadFixture('season', '2025');
    expect(parseSeasonPage(fixture.html, fixture.pageUrl)).toEqual(fixture.expected);
  });

  it('takes the term from `.releases h1` when there is no `.newseason h1`', () => {
    const fixture = loadFixture('season', '2025');
    const html = fixture.html
      .replace('<h1>2025</h1>', '')
      .replace('<div class="newseason">', '<div class="releases"><h1><span>Season: 2025</span></h1></div>\n<div class="newseason">');
    expect(parseSeasonPage(html, fixture.pageUrl).data.term).toEqual({
      name: '2025',
      slug: '2025',
      url: 'https://anichin.cafe/season/2025/',
    });
  });

  it('throws the error the layout-changed fixture names', () => {
    const fixture = loadFixture('season', 'layout-changed');
    expectFixtureError(fixture, () => parseSeasonPage(fixture.html, fixture.pageUrl));
  });
});

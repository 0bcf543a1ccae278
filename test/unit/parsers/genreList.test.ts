import { describe, expect, it } from 'vitest';
import { parseGenreList } from '../../../src/parsers/genreList.js';
import { expectFixtureError, loadFixture } from './fixture.js';

describe('parseGenreList', () => {
  it.each(['sidebar', 'quickfilter-only'])('parses the %s fixture field by field', (name) => {
    const fixture = loadFixture('genres', name);
    expect(parseGenreList(fixture.html, fixture.pageUrl)).toEqual(fixture.expected);
  });

  it('throws LayoutChangedError naming both sources when neither is on the page', () => {
    const fixture = loadFixture('genres', 'none');
    expectFixtureError(fixture, () => parseGenreList(fixture.html, fixture.pageUrl));
  });
});

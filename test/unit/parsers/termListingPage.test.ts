import { describe, expect, it } from 'vitest';
import { parseTermListingPage } from '../../../src/parsers/termListingPage.js';
import { expectFixtureError, loadFixture } from './fixture.js';

describe('parseTermListingPage', () => {
  it('parses a genre page 2 of 39: the term from the heading, the cards, the numbered pagination', () => {
    const fixture = loadFixture('termListing', 'genre-page2');
    expect(parseTermListingPage(fixture.html, fixture.pageUrl, 'genres')).toEqual(fixture.expected);
  });

  it('strips a "Studio:" prefix from the heading and keeps a UTF-8 slug decoded, its URL encoded', () => {
    const fixture = loadFixture('termListing', 'studio-utf8-prefixed');
    expect(parseTermListingPage(fixture.html, fixture.pageUrl, 'studio')).toEqual(fixture.expected);
  });

  it.each(['wrong-kind', 'past-end'])('throws the error the %s fixture names', (name) => {
    const fixture = loadFixture('termListing', name);
    expectFixtureError(fixture, () => parseTermListingPage(fixture.html, fixture.pageUrl, 'genres'));
  });

  it('gives an existing term without series on page 1 as an empty list, with its term', () => {
    const fixture = loadFixture('termListing', 'past-end');
    expect(parseTermListingPage(fixture.html, 'https://anichin.cafe/genres/action/', 'genres').data).toEqual({
      term: { name: 'Action', slug: 'action', url: 'https://anichin.cafe/genres/action/' },
      series: [],
    });
  });

  it('calls a page whose address is not of the taxonomy a layout change (a redirect elsewhere)', () => {
    const fixture = loadFixture('termListing', 'genre-page2');
    expect(() => parseTermListingPage(fixture.html, 'https://anichin.cafe/', 'genres')).toThrow(
      expect.objectContaining({ name: 'LayoutChangedError', pageKind: 'genres', missing: ['term'] }),
    );
  });
});

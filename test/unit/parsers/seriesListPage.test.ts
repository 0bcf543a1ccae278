import { describe, expect, it } from 'vitest';
import { LayoutChangedError } from '../../../src/parsers/errors.js';
import { parseNewMoviePage, parsePopularSeriesPage, parseSeriesListPage } from '../../../src/parsers/seriesListPage.js';
import { expectFixtureError, loadFixture } from './fixture.js';

describe('parseSeriesListPage', () => {
  it.each(['ongoing-page2', 'classic-anime'])('parses the %s fixture field by field', (name) => {
    const fixture = loadFixture('seriesList', name);
    expect(parseSeriesListPage(fixture.html, fixture.pageUrl)).toEqual(fixture.expected);
  });

  it.each(['past-end', 'layout-changed'])('throws the error the %s fixture names', (name) => {
    const fixture = loadFixture('seriesList', name);
    expectFixtureError(fixture, () => parseSeriesListPage(fixture.html, fixture.pageUrl));
  });

  it('calls an empty list on page 1 a layout change, not the end of the list', () => {
    const fixture = loadFixture('seriesList', 'past-end');
    expect(() => parseSeriesListPage(fixture.html, 'https://anichin.cafe/seri/?order=popular')).toThrow(
      new LayoutChangedError('seriesList', ['series.cards']),
    );
  });
});

describe('parsePopularSeriesPage', () => {
  it('parses the list and the sidebar ranking of the same page', () => {
    const fixture = loadFixture('seriesList', 'popular-page2');
    expect(parsePopularSeriesPage(fixture.html, fixture.pageUrl)).toEqual(fixture.expected);
  });

  it('reports ranking tabs it cannot find as missing, with empty lists', () => {
    const fixture = loadFixture('seriesList', 'ongoing-page2');
    const html = fixture.html.replace(/<div class="releases"><h3>Popular Series<\/h3><\/div>/, '');
    const parsed = parsePopularSeriesPage(html, fixture.pageUrl);
    expect(parsed.data.ranking).toEqual({ weekly: [], monthly: [], allTime: [] });
    expect(parsed.missing).toEqual(['ranking.weekly', 'ranking.monthly', 'ranking.allTime']);
  });
});

describe('parseNewMoviePage', () => {
  it('parses the movie list and the NEW MOVIE widget of the same page', () => {
    const fixture = loadFixture('seriesList', 'new-movie');
    expect(parseNewMoviePage(fixture.html, fixture.pageUrl)).toEqual(fixture.expected);
  });

  it('throws PagePastEndError with its own page kind', () => {
    const fixture = loadFixture('seriesList', 'past-end');
    expect(() => parseNewMoviePage(fixture.html, fixture.pageUrl)).toThrow(
      expect.objectContaining({ name: 'PagePastEndError', pageKind: 'newMovie', page: 3 }),
    );
  });
});

describe('parseSeriesListPage on the A–Z list and the filter', () => {
  it.each([
    ['azList', 'letter-page2'],
    ['azList', 'empty-letter'],
    ['seriesFilter', 'no-match'],
    ['seriesFilter', 'genres-page2'],
  ])('parses the %s/%s fixture, an empty first page as a valid empty list', (kind, name) => {
    const fixture = loadFixture(kind, name);
    expect(parseSeriesListPage(fixture.html, fixture.pageUrl, { pageKind: kind, emptyIsValid: true })).toEqual(fixture.expected);
  });

  it('still calls an empty later page of the filter the end of the list', () => {
    const fixture = loadFixture('seriesFilter', 'no-match');
    expect(() =>
      parseSeriesListPage(fixture.html, 'https://anichin.cafe/seri/?status=hiatus&page=4', {
        pageKind: 'seriesFilter',
        emptyIsValid: true,
      }),
    ).toThrow(expect.objectContaining({ name: 'PagePastEndError', pageKind: 'seriesFilter', page: 4 }));
  });
});

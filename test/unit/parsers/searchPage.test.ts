import { describe, expect, it } from 'vitest';
import { PagePastEndError } from '../../../src/parsers/errors.js';
import { parseSearchPage } from '../../../src/parsers/searchPage.js';
import { expectFixtureError, loadFixture } from './fixture.js';

describe('parseSearchPage', () => {
  it.each(['hits', 'no-hits'])('parses the %s fixture field by field', (name) => {
    const fixture = loadFixture('search', name);
    expect(parseSearchPage(fixture.html, fixture.pageUrl)).toEqual(fixture.expected);
  });

  it('throws LayoutChangedError when the main column has no result list', () => {
    const fixture = loadFixture('search', 'layout-changed');
    expectFixtureError(fixture, () => parseSearchPage(fixture.html, fixture.pageUrl));
  });

  it('treats an empty result list past page 1 as the end of the results', () => {
    const fixture = loadFixture('search', 'no-hits');
    expect(() => parseSearchPage(fixture.html, 'https://anichin.cafe/page/4/?s=zzzqqq')).toThrow(new PagePastEndError('search', 4));
  });
});

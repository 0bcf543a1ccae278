import { describe, expect, it } from 'vitest';
import { listingMarkup, mainColumnMarkup } from '../../../src/parsers/scope.js';
import { parseSeriesListPage } from '../../../src/parsers/seriesListPage.js';
import { loadFixture } from './fixture.js';

// seriesFilter/genres-page2: the quick filter's form, then the cards and the pager, in the main column.
const filterPage = loadFixture('seriesFilter', 'genres-page2');

describe('listingMarkup', () => {
  it('keeps the main column around its quick-filter form, and nothing of the form', () => {
    const main = mainColumnMarkup(filterPage.html);
    const formStart = main.indexOf('<form action="https://anichin.cafe/seri" class="filters"');
    const formEnd = main.indexOf('</form>') + '</form>'.length;
    expect(formStart).toBeGreaterThan(0);
    expect(listingMarkup(filterPage.html)).toBe(main.slice(0, formStart) + main.slice(formEnd));
  });

  it('gives the same listing as the whole main column', () => {
    const options = { pageKind: 'seriesFilter', emptyIsValid: true };
    const fromMainColumn = `<html><body>${mainColumnMarkup(filterPage.html)}</body></html>`;
    expect(parseSeriesListPage(filterPage.html, filterPage.pageUrl, options)).toEqual(
      parseSeriesListPage(fromMainColumn, filterPage.pageUrl, options),
    );
  });

  it('removes every closed form and noscript, whatever its case and attributes', () => {
    const html =
      '<div class="postbody"><FORM>a</FORM ><p>kept</p><form\nclass="x">b</form><NoScript><img src="x"></noscript></div><div id="sidebar"></div>';
    expect(listingMarkup(html)).toBe('<div class="postbody"><p>kept</p></div>');
  });

  it('keeps a form whose end is missing, and what follows it', () => {
    // Its cut would otherwise run to the next form's end, over the cards.
    const html =
      '<div class="postbody"><form class="filters"><input name="s"><div class="listupd">cards</div><form>b</form></div><div id="sidebar"></div>';
    expect(listingMarkup(html)).toBe('<div class="postbody"><form class="filters"><input name="s"><div class="listupd">cards</div></div>');
    const unclosed = '<div class="postbody"><form><input name="s"><div class="listupd">cards</div></div><div id="sidebar"></div>';
    expect(listingMarkup(unclosed)).toBe(mainColumnMarkup(unclosed));
  });

  it('removes the noscript copies of lazy images, and the cards keep their posters', () => {
    // termListing/genre-page2: a lazysizes poster (placeholder src, data-src) and its noscript copy.
    const genrePage = loadFixture('termListing', 'genre-page2');
    const copy = '<noscript><img src="https://anichin.cafe/wp-content/uploads/2023/02/The-Emperors-Tomb.jpg"></noscript>';
    expect(mainColumnMarkup(genrePage.html)).toContain(copy);
    expect(listingMarkup(genrePage.html)).toBe(mainColumnMarkup(genrePage.html).replace(copy, ''));
    const options = { pageKind: 'genres', emptyIsValid: true };
    const withCopies = `<html><body>${mainColumnMarkup(genrePage.html)}</body></html>`;
    const posters = (html: string) => parseSeriesListPage(html, genrePage.pageUrl, options).data.series.map((card) => card.poster);
    expect(posters(genrePage.html)).toEqual(posters(withCopies));
    expect(posters(genrePage.html)).toContain('https://anichin.cafe/wp-content/uploads/2023/02/The-Emperors-Tomb.jpg');
  });

  it('leaves a main column without forms or noscript as it is', () => {
    const ongoing = loadFixture('seriesList', 'ongoing-page2');
    expect(listingMarkup(ongoing.html)).toBe(mainColumnMarkup(ongoing.html));
  });
});

import { load } from 'cheerio/slim';
import { describe, expect, it } from 'vitest';
import { sidebarWidgetMarkups } from '../../../src/parsers/scope.js';
import {
  GENRE_WIDGET,
  NEW_MOVIE_WIDGET,
  parseQuickFilterGenres,
  parseWidgetOfPage,
  RANKING_WIDGET,
  type Widget,
} from '../../../src/parsers/sidebar.js';
import { loadFixture } from './fixture.js';

// sidebar/reordered: quick filter last, an ad section between widgets, every widget in the
// theme's cache comments; seriesList/popular-page2: Popular Series is the sidebar's last widget.
const reordered = loadFixture('sidebar', 'reordered');
const popularPage = loadFixture('seriesList', 'popular-page2');

/**
 * A widget as the whole sidebar gives it: with no `div.section` left on the page there is no widget
 * to cut out, so parseWidgetOfPage reads the whole sidebar, which finds widgets by their headings alone.
 */
function fromWholeSidebar<T>(html: string, widget: Widget<T>, pageUrl: string) {
  const withoutSections = html.replaceAll('<div class="section', '<div class="widget');
  expect(sidebarWidgetMarkups(withoutSections, widget.headings)).toEqual([]);
  return parseWidgetOfPage(withoutSections, widget, pageUrl);
}

describe('sidebar widgets', () => {
  it.each(['reordered', 'empty'])('parse the %s fixture widget by widget', (name) => {
    const fixture = loadFixture('sidebar', name);
    const widgets = (read: <T>(html: string, widget: Widget<T>, pageUrl: string) => unknown) => ({
      genreWidget: read(fixture.html, GENRE_WIDGET, fixture.pageUrl),
      quickFilterGenres: parseQuickFilterGenres(load(fixture.html), fixture.pageUrl),
      ranking: read(fixture.html, RANKING_WIDGET, fixture.pageUrl),
      newMovie: read(fixture.html, NEW_MOVIE_WIDGET, fixture.pageUrl),
    });
    expect(widgets(fromWholeSidebar)).toEqual(fixture.expected);
    expect(widgets(parseWidgetOfPage)).toEqual(fixture.expected);
  });

  it('finds widgets by heading case-insensitively and ignores the View All link', () => {
    const html = `<div id="sidebar"><div class="section">
      <div class="releases"><h3>New Movie <a class="vl" href="/anime/?type=Movie">View All</a></h3></div>
      <div class="serieslist"><ul><li>
        <div class="leftseries"><h4><a class="series" href="/seri/x-movie/">X Movie</a></h4><span>Des 02, 2024</span></div>
      </li></ul></div></div></div>`;
    expect(parseWidgetOfPage(html, NEW_MOVIE_WIDGET, 'https://anichin.cafe/')).toEqual(
      fromWholeSidebar(html, NEW_MOVIE_WIDGET, 'https://anichin.cafe/'),
    );
    expect(fromWholeSidebar(html, NEW_MOVIE_WIDGET, 'https://anichin.cafe/').data).toEqual([
      {
        title: 'X Movie',
        slug: 'x-movie',
        url: 'https://anichin.cafe/seri/x-movie/',
        poster: null,
        genres: [],
        releaseDate: '2024-12-02',
        releaseDateText: 'Des 02, 2024',
      },
    ]);
  });

  it('does not read a Genres section outside #sidebar', () => {
    const html = `<div class="postbody"><div class="section"><div class="releases"><h3>Genres</h3></div>
      <ul class="genre"><li><a href="/genres/action/">Action</a></li></ul></div></div>`;
    expect(parseWidgetOfPage(html, GENRE_WIDGET, 'https://anichin.cafe/')).toEqual({ data: [], missing: ['genreWidget'] });
  });
});

describe('sidebarWidgetMarkups', () => {
  it('cuts a widget from its div.section to the next widget', () => {
    const [ranking, ...others] = sidebarWidgetMarkups(reordered.html, RANKING_WIDGET.headings);
    expect(others).toEqual([]);
    expect(ranking).toMatch(/^<div class="section">\s*<div class="releases"><h3>Popular Series<\/h3><\/div>/);
    expect(ranking).toMatch(/<\/div>\s*<!--themesia cache end 2026-04-26 10:00:02-->\s*<!--themesia cache start-->\s*$/);
  });

  it('finds a heading wrapped in a span, and skips widgets whose items only carry the word', () => {
    // Popular Series and NEW MOVIE items hold `<b>Genres</b>`; only the Genres widget is titled so.
    const [genres, ...others] = sidebarWidgetMarkups(reordered.html, GENRE_WIDGET.headings);
    expect(others).toEqual([]);
    expect(genres).toMatch(/^<div class="section">\s*<div class="releases"><h3>Genres<\/h3><\/div>/);
    expect(genres).toMatch(/<\/ul>\s*<\/div>\s*<!--themesia cache end 2026-04-26 10:00:05-->\s*<!--themesia cache start-->\s*$/);
    const [newMovie] = sidebarWidgetMarkups(reordered.html, NEW_MOVIE_WIDGET.headings);
    expect(newMovie).toMatch(/^<div class="section">\s*<div class="releases"><h3><span>NEW MOVIE<\/span><\/h3>/);
    // The ad section after it is the next cut's.
    expect(newMovie).toMatch(/<\/div>\s*<!--themesia cache end 2026-04-26 10:00:03-->\s*$/);
  });

  it('runs the last widget to the end of the page, and finds nothing on a page without a sidebar', () => {
    const empty = loadFixture('sidebar', 'empty');
    const [season] = sidebarWidgetMarkups(empty.html, ['season anichin']);
    expect(season).toBe(empty.html.slice(empty.html.indexOf('<div class="section">\n  <div class="releases"><h3>Season Anichin')));
    const withoutSidebar = reordered.html.replace('<div id="sidebar">', '<div id="aside">');
    expect(sidebarWidgetMarkups(withoutSidebar, GENRE_WIDGET.headings)).toEqual([]);
  });
});

describe('parseWidgetOfPage', () => {
  it.each([
    ['reordered', reordered],
    ['popular-page2', popularPage],
  ])('reads each widget of the %s page as the whole page gives it', (_name, fixture) => {
    for (const widget of [GENRE_WIDGET, RANKING_WIDGET, NEW_MOVIE_WIDGET] as Widget<unknown>[]) {
      expect(parseWidgetOfPage(fixture.html, widget, fixture.pageUrl)).toEqual(fromWholeSidebar(fixture.html, widget, fixture.pageUrl));
    }
  });

  it('falls back to the whole sidebar when the markup test misses the heading', () => {
    // `&nbsp;` reads as a space once parsed, but not in the markup.
    const html = popularPage.html.replace('<h3>Popular Series</h3>', '<h3>Popular&nbsp;Series</h3>');
    expect(sidebarWidgetMarkups(html, RANKING_WIDGET.headings)).toEqual([]);
    const ranking = parseWidgetOfPage(html, RANKING_WIDGET, popularPage.pageUrl);
    expect(ranking.data.weekly.map((item) => item.slug)).toEqual([
      'renegade-immortal',
      'battle-through-the-heavens-season-5',
      'throne-of-seal',
    ]);
    expect(ranking).toEqual(fromWholeSidebar(popularPage.html, RANKING_WIDGET, popularPage.pageUrl));
  });

  it('falls back to the whole sidebar when the widget is not a div.section', () => {
    const html = reordered.html.replace(
      '<div class="section">\n  <div class="releases"><h3>Genres</h3></div>',
      '<div class="widget">\n  <div class="releases"><h3>Genres</h3></div>',
    );
    // The ad section before it runs over it, but the parsed ad section holds no Genres heading.
    const cuts = sidebarWidgetMarkups(html, GENRE_WIDGET.headings);
    expect(cuts.map((cut) => cut.slice(0, cut.indexOf('>') + 1))).toEqual(['<div class="section kln">']);
    expect(parseWidgetOfPage(html, GENRE_WIDGET, reordered.pageUrl).data.map((genre) => genre.slug)).toEqual([
      'action',
      'cultivation',
      'historical-wuxia',
      'martial-arts',
      'sci-fi',
    ]);
  });

  it('reads the whole sidebar again when the cut widget has parts missing', () => {
    // A `div.section` opening inside the widget ends its cut before the ranking lists.
    const html = popularPage.html.replace('<div id="wpop-items">', '<div id="wpop-items"><div class="section"></div>');
    const [cut] = sidebarWidgetMarkups(html, RANKING_WIDGET.headings);
    expect(cut).toMatch(/<h3>Popular Series<\/h3>/);
    expect(cut).not.toContain('wpop-weekly');
    const ranking = parseWidgetOfPage(html, RANKING_WIDGET, popularPage.pageUrl);
    expect(ranking).toEqual(fromWholeSidebar(popularPage.html, RANKING_WIDGET, popularPage.pageUrl));
    expect(ranking.missing).toEqual([]);
  });

  it('reports a widget the sidebar does not have as missing', () => {
    const empty = loadFixture('sidebar', 'empty');
    expect(parseWidgetOfPage(empty.html, NEW_MOVIE_WIDGET, empty.pageUrl)).toEqual({ data: [], missing: ['newMovieWidget'] });
  });

  it("reads a genre link's slug from its /genres/ segment, whatever follows it", () => {
    const links = ['/genres/action/page/2/', 'https://anichin.cafe/genres/sci-fi?ref=side', '/genres/%E6%AD%A6%E4%BE%A0/', '/tag/romance/'];
    const html = `<div id="sidebar"><div class="section"><div class="releases"><h3>Genres</h3></div><ul class="genre">${links
      .map((href, index) => `<li><a href="${href}">G${index}</a></li>`)
      .join('')}</ul></div></div>`;
    expect(parseWidgetOfPage(html, GENRE_WIDGET, 'https://anichin.cafe/').data).toEqual([
      { name: 'G0', slug: 'action', url: 'https://anichin.cafe/genres/action/page/2/' },
      { name: 'G1', slug: 'sci-fi', url: 'https://anichin.cafe/genres/sci-fi?ref=side' },
      { name: 'G2', slug: '武侠', url: 'https://anichin.cafe/genres/%E6%AD%A6%E4%BE%A0/' },
      { name: 'G3', slug: 'romance', url: 'https://anichin.cafe/tag/romance/' },
    ]);
  });
});

import { load } from 'cheerio/slim';
import { describe, expect, it } from 'vitest';
import { parseGenreWidget, parseNewMovieWidget, parseQuickFilterGenres, parseRankingWidget } from '../../../src/parsers/sidebar.js';
import { loadFixture } from './fixture.js';

describe('sidebar widgets', () => {
  it.each(['reordered', 'empty'])('parse the %s fixture widget by widget', (name) => {
    const fixture = loadFixture('sidebar', name);
    const $ = load(fixture.html);
    expect({
      genreWidget: parseGenreWidget($, fixture.pageUrl),
      quickFilterGenres: parseQuickFilterGenres($, fixture.pageUrl),
      ranking: parseRankingWidget($, fixture.pageUrl),
      newMovie: parseNewMovieWidget($, fixture.pageUrl),
    }).toEqual(fixture.expected);
  });

  it('finds widgets by heading case-insensitively and ignores the View All link', () => {
    const $ = load(`<div id="sidebar"><div class="section">
      <div class="releases"><h3>New Movie <a class="vl" href="/anime/?type=Movie">View All</a></h3></div>
      <div class="serieslist"><ul><li>
        <div class="leftseries"><h4><a class="series" href="/seri/x-movie/">X Movie</a></h4><span>Des 02, 2024</span></div>
      </li></ul></div></div></div>`);
    expect(parseNewMovieWidget($, 'https://anichin.cafe/').data).toEqual([
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
    const $ = load(`<div class="postbody"><div class="section"><div class="releases"><h3>Genres</h3></div>
      <ul class="genre"><li><a href="/genres/action/">Action</a></li></ul></div></div>`);
    expect(parseGenreWidget($, 'https://anichin.cafe/')).toEqual({ data: [], missing: ['genreWidget'] });
  });
});

import { describe, expect, it } from 'vitest';
import { parseGenreList } from '../../../src/parsers/genreList.js';
import { sidebarMarkup } from '../../../src/parsers/scope.js';

const PAGE_URL = 'https://anichin.cafe/';
const main =
  '<div class="postbody"><div id="sidebar-note">not the sidebar</div><ul class="genre"><li><a href="/genres/decoy/">Decoy</a></li></ul></div>';
const sidebar = `<div id='sidebar' class="right"><div class="section"><div class="releases"><h3>Genres</h3></div><ul class="genre"><li><a href="/genres/action/">Action</a></li></ul></div></div>`;

describe('sidebarMarkup', () => {
  it('keeps the markup from the sidebar on, whatever its quotes and other attributes', () => {
    expect(sidebarMarkup(`<html><body>${main}${sidebar}<div id="footer"></div></body></html>`)).toBe(
      `${sidebar}<div id="footer"></div></body></html>`,
    );
  });

  it('keeps the whole page when it has no sidebar', () => {
    const html = `<html><body>${main}</body></html>`;
    expect(sidebarMarkup(html)).toBe(html);
  });
});

describe('parseGenreList on the sidebar alone', () => {
  it('reads the widget from the sidebar, never a look-alike list of the main column', () => {
    const page = parseGenreList(`<html><body>${main}${sidebar}</body></html>`, PAGE_URL);
    expect(page.data.genres).toEqual([{ name: 'Action', slug: 'action', url: 'https://anichin.cafe/genres/action/' }]);
  });

  it('falls back to the quick filter of the whole page when the sidebar has no genre widget', () => {
    const quickFilter =
      '<form class="filters"><input type="checkbox" name="genre[]" id="g-drama" value="drama"><label for="g-drama">Drama</label></form>';
    const page = parseGenreList(`<html><body><div class="postbody">${quickFilter}</div><div id="sidebar"></div></body></html>`, PAGE_URL);
    expect(page.data.genres).toEqual([{ name: 'Drama', slug: 'drama', url: 'https://anichin.cafe/genres/drama/' }]);
    expect(page.missing).toEqual(['genreWidget']);
  });
});

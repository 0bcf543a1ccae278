import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isSeriesPage, readListPath, readSeriesLink } from '../../../src/parsers/sitePaths.js';
import { CAFE, episodeMain, MOE, SISTER, seriesMain, themePage } from '../../helpers/themePages.js';

const fixture = (path: string) => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8');

describe('the list path, from the quick-filter form', () => {
  it('reads an absolute action on its own domain (today’s site)', () => {
    expect(readListPath(themePage(CAFE, '', '/'), 'https://anichin.cafe/')).toBe('/seri/');
    expect(readListPath(fixture('home/page1.html'), 'https://anichin.cafe/')).toBe('/seri/');
  });

  it('reads a relative action against the page (the later snapshot)', () => {
    expect(
      readListPath(
        themePage(MOE, seriesMain(MOE, 'martial-master', 'Martial Master'), '/martial-master/'),
        'http://127.0.0.1:4000/martial-master/',
      ),
    ).toBe('/anime/');
  });

  it('takes a form of div.quickfilter without the filters class', () => {
    const html = themePage(CAFE, '', '/').replace('class="filters" ', '');
    expect(readListPath(html, 'https://anichin.cafe/')).toBe('/seri/');
  });

  it('is null on a site with only the search form, and on a page without the sidebar', () => {
    expect(readListPath(themePage(SISTER, '', '/'), 'https://donghuastream.org/')).toBeNull();
    expect(readListPath(themePage(CAFE, '', '/', { sidebar: false }), 'https://anichin.cafe/')).toBeNull();
    expect(readListPath(fixture('series/ongoing.html'), 'https://anichin.cafe/seri/renegade-immortal/')).toBeNull();
  });
});

describe('where the site links a series', () => {
  it('reads the sidebar’s series links, absolute or relative, with the slug', () => {
    expect(readSeriesLink(themePage(CAFE, '', '/'), 'https://anichin.cafe/')).toEqual({ seriesPath: '/seri/', slug: 'renegade-immortal' });
    expect(readSeriesLink(themePage(MOE, '', '/'), 'https://anichin.moe/')).toEqual({ seriesPath: '/', slug: 'renegade-immortal' });
    expect(readSeriesLink(themePage(SISTER, '', '/'), 'https://donghuastream.org/')).toEqual({
      seriesPath: '/anime/',
      slug: 'renegade-immortal',
    });
    expect(readSeriesLink(fixture('series/ongoing.html'), 'https://anichin.cafe/seri/renegade-immortal/')).toEqual({
      seriesPath: '/seri/',
      slug: 'soul-land-2',
    });
  });

  it('reads an episode post’s breadcrumb when the page has no sidebar', () => {
    const html = themePage(
      SISTER,
      episodeMain(SISTER, 'swallowed-star', 'swallowed-star-episode-15-subtitle-indonesia'),
      '/swallowed-star-episode-15-subtitle-indonesia/',
      { sidebar: false },
    );
    expect(readSeriesLink(html, 'https://donghuastream.org/swallowed-star-episode-15-subtitle-indonesia/')).toEqual({
      seriesPath: '/anime/',
      slug: 'swallowed-star',
    });
  });

  it('is null on a page without the sidebar that is neither a series nor an episode', () => {
    expect(
      readSeriesLink(
        themePage(CAFE, '<div class="bixbox"><a itemprop="item" href="/genres/action/">Action</a></div>', '/genres/action/', {
          sidebar: false,
        }),
        'https://anichin.cafe/genres/action/',
      ),
    ).toBeNull();
  });
});

describe('a series page', () => {
  it('is told from an episode post and from another page at the root', () => {
    expect(isSeriesPage(themePage(MOE, seriesMain(MOE, 'martial-master', 'Martial Master'), '/martial-master/'))).toBe(true);
    expect(isSeriesPage(fixture('series/ongoing.html'))).toBe(true);
    expect(isSeriesPage(fixture('series/classic-completed.html'))).toBe(true);
    expect(
      isSeriesPage(
        themePage(
          MOE,
          episodeMain(MOE, 'martial-master', 'martial-master-episode-05-subtitle-indonesia'),
          '/martial-master-episode-05-subtitle-indonesia/',
        ),
      ),
    ).toBe(false);
    expect(isSeriesPage(fixture('episode/first.html'))).toBe(false);
    expect(isSeriesPage(fixture('home/page1.html'))).toBe(false);
  });
});

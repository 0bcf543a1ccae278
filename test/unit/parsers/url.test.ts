import { load } from 'cheerio/slim';
import { describe, expect, it } from 'vitest';
import { absoluteUrl, imageCandidateUrl, imageUrl, linkTarget, slugFromUrl } from '../../../src/parsers/url.js';

const page = 'https://anichin.cafe/seri/?order=popular&page=2';

describe('absoluteUrl', () => {
  it.each([
    ['https://anichin.cafe/seri/soul-land/', 'https://anichin.cafe/seri/soul-land/'],
    ['/seri/soul-land/', 'https://anichin.cafe/seri/soul-land/'],
    ['//i0.wp.com/anichin.cafe/a.jpg', 'https://i0.wp.com/anichin.cafe/a.jpg'],
    ['?page=3&status=&order=popular', 'https://anichin.cafe/seri/?page=3&status=&order=popular'],
    ['soul-land/', 'https://anichin.cafe/seri/soul-land/'],
    ['  /genres/action/ ', 'https://anichin.cafe/genres/action/'],
    ['', null],
    ['   ', null],
    [undefined, null],
    [null, null],
    ['#', null],
    ['#series-759', null],
    ['javascript:void(0)', null],
    ['JavaScript:alert(1)', null],
    ['mailto:admin@anichin.cafe', null],
    ['data:image/gif;base64,R0lGOD', null],
    ['http://[bad', null],
  ])('%j → %j', (href, expected) => {
    expect(absoluteUrl(href, page)).toBe(expected);
  });
});

// Links and images URL would print as written are taken so, unparsed: each must come out as URL prints it.
describe('absoluteUrl and linkTarget against URL', () => {
  const origins = [
    'https://anichin.moe',
    'http://127.0.0.1:4000',
    'https://i0.wp.com',
    'https://AniChin.moe',
    'https://anichin.moe:443',
    'http://x.test:80',
  ];
  const paths = [
    '/',
    '/a',
    '/a/',
    '/seri/soul-land/',
    '/wp-content/uploads/2025/06/Heaven-Devouring-Sovereign.webp',
    '/anichin.cafe/e.jpg',
    '/a/./b/',
    '/a/../b/',
    '/./',
    '/../a/',
    '/a//b/',
    '/a/b//',
    '//a/b/',
    '/.hidden/x',
    '/a./b..c/-_/',
    '/é/',
    '/a b/',
    '/a%20b/',
    '/a\\b/',
    '/a:b/',
  ];
  const queries = ['', '?', '?resize=247,350', '?a=1&b=&c', "?q='x'", '?q=a b', '?q=%41', '?q=é', '?q=a?b', '#top', '?q=1#x'];
  const hrefs = origins.flatMap((origin) => paths.flatMap((path) => queries.map((query) => `${origin}${path}${query}`)));
  const relative = paths.flatMap((path) => queries.map((query) => `${path}${query}`));
  const pages = ['https://anichin.moe/x/?page=2', 'HTTPS://AniChin.MOE/x/', 'http://127.0.0.1:4000/seri/y/'];

  it.each(pages)('resolves every link as URL does, on %s', (pageUrl) => {
    for (const href of [...hrefs, ...relative]) {
      const url = new URL(href, pageUrl).href;
      expect([href, absoluteUrl(href, pageUrl)]).toEqual([href, url]);
      const slug = slugFromUrl(url);
      expect([href, linkTarget(href, pageUrl)]).toEqual([href, slug === null ? null : { url, slug }]);
    }
  });
});

describe('linkTarget', () => {
  // Plain permalinks skip the URL parse; everything else must come out as URL prints it.
  it.each([
    ['https://anichin.cafe/seri/soul-land/', 'https://anichin.cafe/seri/soul-land/', 'soul-land'],
    [
      'https://anichin.cafe/perfect-world-episode-210-subtitle-indonesia',
      'https://anichin.cafe/perfect-world-episode-210-subtitle-indonesia',
      'perfect-world-episode-210-subtitle-indonesia',
    ],
    ['http://127.0.0.1:4000/x-episode-1/', 'http://127.0.0.1:4000/x-episode-1/', 'x-episode-1'],
    ['https://anichin.cafe/seri/Soul_Land/', 'https://anichin.cafe/seri/Soul_Land/', 'Soul_Land'],
    [' \n https://anichin.cafe/seri/y/ ', 'https://anichin.cafe/seri/y/', 'y'],
    ['https://user@anichin.cafe/seri/y/', 'https://user@anichin.cafe/seri/y/', 'y'],
    ['HTTPS://AniChin.CAFE/seri/soul-land/', 'https://anichin.cafe/seri/soul-land/', 'soul-land'],
    ['https://AniChin.cafe/seri/soul-land/', 'https://anichin.cafe/seri/soul-land/', 'soul-land'],
    ['https://anichin.cafe:443/seri/x/', 'https://anichin.cafe/seri/x/', 'x'],
    ['https://anichin.cafe:/seri/y/', 'https://anichin.cafe/seri/y/', 'y'],
    ['http://0x7f.0.0.1/x/', 'http://127.0.0.1/x/', 'x'],
    ['http://[0:0::1]/seri/y/', 'http://[::1]/seri/y/', 'y'],
    ['https://anich\tin.cafe/seri/y/', 'https://anichin.cafe/seri/y/', 'y'],
    ['https://anichin.cafe\\seri/y/', 'https://anichin.cafe/seri/y/', 'y'],
    ['https://anichin.cafe/seri/./x/../y/', 'https://anichin.cafe/seri/y/', 'y'],
    ['https://anichin.cafe/seri/斗罗/', 'https://anichin.cafe/seri/%E6%96%97%E7%BD%97/', '斗罗'],
    ['https://anichin.cafe/seri/y/?ref=home', 'https://anichin.cafe/seri/y/?ref=home', 'y'],
    ['https://anichin.cafe/seri/y//', 'https://anichin.cafe/seri/y//', 'y'],
    ['/seri/y/', 'https://anichin.cafe/seri/y/', 'y'],
    // Characters that are not text are dropped, not percent-encoded, and not decoded back into the slug.
    ['h\u0001ttps://anichin.cafe/seri/soul\u001b-land\ufffe/', 'https://anichin.cafe/seri/soul-land/', 'soul-land'],
    ['https://anichin.cafe/seri/soul%01-land%EF%BF%BE/', 'https://anichin.cafe/seri/soul%01-land%EF%BF%BE/', 'soul-land'],
  ])('%j → %s', (href, url, slug) => {
    expect(linkTarget(href, page)).toEqual({ url, slug });
  });

  it.each([
    'https://anichin.cafe/',
    'https://anichin.cafe?x/seri/y/',
    'https://anichin.cafe#x/seri/y/',
    'https://an ichin.cafe/seri/y/',
    '#top',
    undefined,
  ])('%j → null', (href) => {
    expect(linkTarget(href, page)).toBeNull();
  });

  // The later snapshot's root-relative permalinks: the page's origin plus the path, as URL resolves them.
  it.each([
    ['/soul-land/', 'https://anichin.moe/x/', 'https://anichin.moe/soul-land/', 'soul-land'],
    ['/anime/soul-land', 'https://anichin.moe/', 'https://anichin.moe/anime/soul-land', 'soul-land'],
    ['/soul-land/', 'HTTPS://AniChin.MOE/x/', 'https://anichin.moe/soul-land/', 'soul-land'],
    ['/soul-land/', 'https://anichin.moe:443/x/', 'https://anichin.moe/soul-land/', 'soul-land'],
    ['/soul-land/', 'http://127.0.0.1:41234/x/', 'http://127.0.0.1:41234/soul-land/', 'soul-land'],
    ['//other.test/soul-land/', 'https://anichin.moe/x/', 'https://other.test/soul-land/', 'soul-land'],
    ['/seri/../soul-land/', 'https://anichin.moe/x/', 'https://anichin.moe/soul-land/', 'soul-land'],
  ])('%j on %s → %s', (href, pageUrl, url, slug) => {
    expect(linkTarget(href, pageUrl)).toEqual({ url, slug });
    expect(new URL(href, pageUrl).href).toBe(url);
  });

  it('judges each origin anew when links of several origins alternate', () => {
    const hrefs = [
      'https://AniChin.cafe/a/',
      'https://anichin.cafe/b/',
      'http://x.test:80/c/',
      'http://x.test:8080/d/',
      'https://AniChin.cafe/e/',
    ];
    expect(hrefs.map((href) => linkTarget(href, page)?.url)).toEqual([
      'https://anichin.cafe/a/',
      'https://anichin.cafe/b/',
      'http://x.test/c/',
      'http://x.test:8080/d/',
      'https://anichin.cafe/e/',
    ]);
  });
});

describe('slugFromUrl', () => {
  it.each([
    ['https://anichin.cafe/seri/renegade-immortal/', 'renegade-immortal'],
    ['https://anichin.cafe/seri/renegade-immortal', 'renegade-immortal'],
    ['https://anichin.cafe/anime/soul-land/?ref=home#top', 'soul-land'],
    ['https://anichin.cafe/perfect-world-episode-210-subtitle-indonesia/', 'perfect-world-episode-210-subtitle-indonesia'],
    ['https://anichin.cafe/seri/%E6%96%97%E7%BD%97/', '斗罗'],
    ['https://anichin.cafe/seri/100%25-bad/', '100%-bad'],
    ['https://anichin.cafe/seri/%E0%A4%A/', '%E0%A4%A'],
    ['https://anichin.cafe/', null],
    ['not a url', null],
  ])('%j → %j', (url, expected) => {
    expect(slugFromUrl(url)).toBe(expected);
  });
});

describe('imageCandidateUrl', () => {
  // A placeholder is no image; a real one is made absolute.
  it.each([
    ['data:image/svg+xml,%3Csvg%3E%3C/svg%3E', null],
    ['https://anichin.cafe/wp-content/plugins/a3-lazy-load/assets/images/lazy_placeholder.gif', null],
    ['/wp-content/themes/animestream/img/placeholder.svg', null],
    ['https://anichin.cafe/wp-content/uploads/blank.gif', null],
    ['', null],
    [undefined, null],
    [
      'https://anichin.cafe/wp-content/uploads/2023/09/Renegade-Immortal.webp',
      'https://anichin.cafe/wp-content/uploads/2023/09/Renegade-Immortal.webp',
    ],
    ['/wp-content/uploads/2023/09/Blanket-Story.jpg', 'https://anichin.cafe/wp-content/uploads/2023/09/Blanket-Story.jpg'],
  ])('%j → %j', (url, expected) => {
    expect(imageCandidateUrl(url, 'https://anichin.cafe/ongoing/')).toBe(expected);
  });
});

describe('imageUrl', () => {
  const srcOf = (img: string) => {
    const $ = load(img);
    return imageUrl($('img').get(0), 'https://anichin.cafe/ongoing/');
  };

  it.each([
    ['direct src', '<img src="/wp-content/uploads/a.webp">', 'https://anichin.cafe/wp-content/uploads/a.webp'],
    [
      'data-src over a data: placeholder',
      '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="https://anichin.cafe/b.jpg">',
      'https://anichin.cafe/b.jpg',
    ],
    [
      'data-lazy-src over a lazy gif',
      '<img src="/wp-content/plugins/lazy-load/lazy.gif" data-lazy-src="/c.jpg">',
      'https://anichin.cafe/c.jpg',
    ],
    ['data-cfsrc without src', '<img data-cfsrc="https://anichin.cafe/d.jpg" style="display:none">', 'https://anichin.cafe/d.jpg'],
    ['data-src before data-lazy-src', '<img data-lazy-src="/second.jpg" data-src="/first.jpg">', 'https://anichin.cafe/first.jpg'],
    ['a placeholder in data-src is skipped', '<img data-src="/img/placeholder.svg" src="/real.jpg">', 'https://anichin.cafe/real.jpg'],
    [
      'largest srcset width, Photon commas intact',
      '<img src="/small.jpg" srcset="https://i0.wp.com/anichin.cafe/e.jpg?resize=150,212 150w, https://i0.wp.com/anichin.cafe/e.jpg?resize=247,350 247w, https://i0.wp.com/anichin.cafe/e.jpg?resize=200,283 200w">',
      'https://i0.wp.com/anichin.cafe/e.jpg?resize=247,350',
    ],
    ['first srcset candidate without widths', '<img srcset="/f-1x.jpg 1x, /f-2x.jpg 2x">', 'https://anichin.cafe/f-1x.jpg'],
    ['srcset without spaces after commas', '<img srcset="/g-150.jpg 150w,/g-300.jpg 300w">', 'https://anichin.cafe/g-300.jpg'],
    [
      'Photon ?resize= kept as the poster',
      '<img src="https://i2.wp.com/anichin.cafe/h.jpg?resize=247,350">',
      'https://i2.wp.com/anichin.cafe/h.jpg?resize=247,350',
    ],
    ['only a placeholder', '<img src="data:image/svg+xml,%3Csvg%3E%3C/svg%3E">', null],
    ['no source at all', '<img alt="x">', null],
    [
      'a control character in a placeholder’s name',
      '<img data-src="/img/place\u0001holder.svg" src="/real.jpg">',
      'https://anichin.cafe/real.jpg',
    ],
    [
      'control characters in srcset (VT and FF are whitespace to the grammar)',
      '<img srcset="/g-1\u000b50.jpg 150w, /g-3\u000c00.jpg 300w">',
      'https://anichin.cafe/g-300.jpg',
    ],
  ])('%s', (_, img, expected) => {
    expect(srcOf(img)).toBe(expected);
  });
});

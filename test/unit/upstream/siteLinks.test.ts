import { describe, expect, it } from 'vitest';
import { readOwnOrigins } from '../../../src/parsers/sitePaths.js';
import { linksOnServingOrigin, pageText } from '../../../src/upstream/siteLinks.js';
import { CAFE, episodeMain, MOE, SISTER, seriesMain, themePage, type ThemeSite } from '../../helpers/themePages.js';

const SERVED_BY = 'http://127.0.0.1:4000';
// The sister site read through another address (a mirror, or its domain before a move).
const MIRRORED: ThemeSite = { ...SISTER, origin: 'https://donghuastream.org' };

describe('the origins a page names as its own', () => {
  it('are its canonical and home links, when absolute', () => {
    expect(readOwnOrigins(themePage(CAFE, seriesMain(CAFE, 'soul-land-2', 'Soul Land 2'), '/seri/soul-land-2/'))).toEqual([
      'https://anichin.cafe',
    ]);
    expect(readOwnOrigins(themePage(MOE, seriesMain(MOE, 'martial-master', 'Martial Master'), '/martial-master/'))).toEqual([]);
  });

  it('are both when the canonical names the old domain and the home link the new one', () => {
    const html = themePage(CAFE, '', '/').replace(
      '<link rel="canonical" href="https://anichin.cafe/" />',
      '<link rel="canonical" href="https://anichin.club/" />',
    );
    expect(readOwnOrigins(html)).toEqual(['https://anichin.club', 'https://anichin.cafe']);
  });
});

describe('links on the origin that served the page', () => {
  it('rewrites every link on the page’s own domain, and leaves other sites’ URLs and look-alike hosts', () => {
    const main = `${episodeMain(MIRRORED, 'swallowed-star', 'swallowed-star-episode-15-subtitle-indonesia')}
<a href="https://donghuastream.org.example/phish/">look-alike</a><a href="https://donghuastream.org:8443/other/">other port</a>`;
    const html = themePage(MIRRORED, main, '/swallowed-star-episode-15-subtitle-indonesia/');
    const served = linksOnServingOrigin(html, SERVED_BY, [SERVED_BY]);

    expect(served).not.toMatch(/https:\/\/donghuastream\.org[/"']/);
    expect(served).toContain(`<link rel="canonical" href="${SERVED_BY}/swallowed-star-episode-15-subtitle-indonesia/" />`);
    expect(served).toContain(`<a itemprop="item" href="${SERVED_BY}/anime/swallowed-star/">`);
    expect(served).toContain(`<a class="series" href="${SERVED_BY}/anime/renegade-immortal/" rel="1001">`);
    expect(served).toContain(`<a href="${SERVED_BY}/az-lists/?show=A">A</a>`);
    // Assets of the site are its links too; other sites' URLs stay.
    expect(served).toContain(`href='${SERVED_BY}/wp-content/themes/animestream/style.css?ver=2.2.6'`);
    expect(served).toContain('data-src="https://i0.wp.com/anichin.cafe/wp-content/uploads/renegade-immortal.jpg?resize=65,85"');
    expect(served).toContain('<iframe src="https://ok.ru/videoembed/1"></iframe>');
    expect(served).toContain('<a href="https://donghuastream.org.example/phish/">');
    expect(served).toContain('<a href="https://donghuastream.org:8443/other/">');
  });

  it('rewrites the site’s other configured origins, and leaves a page on the serving origin as it is', () => {
    const onOld = themePage({ ...CAFE, origin: 'https://anichin.club' }, '', '/');
    expect(linksOnServingOrigin(onOld, 'https://anichin.cafe', ['https://anichin.cafe', 'https://anichin.club'])).toBe(
      themePage(CAFE, '', '/').replace(/anichin\.club/g, 'anichin.cafe'),
    );
    const own = themePage(CAFE, '', '/');
    expect(linksOnServingOrigin(own, 'https://anichin.cafe', ['https://anichin.cafe'])).toBe(own);
    const relative = themePage(MOE, '', '/');
    expect(linksOnServingOrigin(relative, SERVED_BY, [SERVED_BY])).toBe(relative);
  });
});

describe("a fetched page's text", () => {
  it('is its bytes as UTF-8 without the byte-order mark, its links on the serving origin', () => {
    const html = themePage(MIRRORED, seriesMain(MIRRORED, 'xi-you-ji', '西游记 — “Séries” 🐉'), '/xi-you-ji/');
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(html)]);
    const text = pageText({ body, servedBy: SERVED_BY, siteOrigins: [SERVED_BY] });
    expect(text).toBe(linksOnServingOrigin(html, SERVED_BY, [SERVED_BY]));
    expect(text.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(text).toContain('西游记 — “Séries” 🐉');
    expect(text).not.toContain(MIRRORED.origin);
  });
});

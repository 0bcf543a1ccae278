import { describe, expect, it } from 'vitest';
import { parseHomePage } from '../../../src/parsers/homePage.js';
import { loadFixture } from './fixture.js';

// home/page1's first slide, its banner written the ways CSS allows.
const fixture = loadFixture('home', 'page1');
const FIRST_STYLE = `style="background-image:url('https://anichin.cafe/wp-content/uploads/2024/05/Swallowed-Star-banner.jpg');"`;

function firstBanner(style: string): string | null {
  const html = fixture.html.replace(FIRST_STYLE, style);
  return parseHomePage(html, fixture.pageUrl).data.slider[0]?.banner ?? null;
}

describe('the slider banner', () => {
  it.each([
    [`style="background-image: URL( &quot;/wp-content/uploads/a.jpg&quot; )"`, 'https://anichin.cafe/wp-content/uploads/a.jpg'],
    [`style="background:#000 Url(/wp-content/uploads/b.jpg) no-repeat"`, 'https://anichin.cafe/wp-content/uploads/b.jpg'],
    [`style="background-image:url('/wp-content/uploads/it's.jpg')"`, "https://anichin.cafe/wp-content/uploads/it's.jpg"],
    [
      `style="background-image:url('data:image/gif;base64,R0lGOD')" data-src="/wp-content/uploads/c.jpg"`,
      'https://anichin.cafe/wp-content/uploads/c.jpg',
    ],
  ])('reads %s', (style, banner) => {
    expect(firstBanner(style)).toBe(banner);
  });
});

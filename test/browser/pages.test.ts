import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blankPage,
  expectNoHorizontalScroll,
  focusedId,
  openPage,
  screenshot,
  startBrowserStack,
  WIDTHS,
  type BrowserStack,
} from './browser.js';

let env: BrowserStack;

beforeAll(async () => {
  // The defaults, so that the screenshots show the numbers a visitor sees.
  env = await startBrowserStack({ RATE_LIMIT_MAX: '50', REPORT_RATE_LIMIT_MAX: '5' });
});
afterAll(() => env.close());

describe('the pages at 1280 and 360 px', () => {
  // Each page loaded once, then measured and shot at each width (the layout follows the viewport, and no
  // script of the pages reads the width): on a loaded machine, longer than the suite's 20 s per test.
  it.each([
    ['landing', '/', 'Donghua Catalog API', 'whole page'],
    ['docs-top', '/docs', 'Referensi API', 'window'],
    ['not-found', '/tidak-ada', 'Halaman tidak ditemukan', 'whole page'],
  ] as const)(
    '%s (%s) renders without sideways scrolling and without CSP violations',
    async (name, path, heading, shown) => {
      // Blank first, so the listeners below are in place before the page under test loads.
      const { page, close } = await blankPage(env);
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      try {
        await page.goto(`${env.baseUrl}${path}`);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          expect(await page.locator('h1').textContent()).toBe(heading);
          // The stylesheet applied (the CSP lets our own through): the header has its colour.
          expect(await page.evaluate("getComputedStyle(document.querySelector('.site-header')).backgroundColor")).toBe('rgb(8, 63, 119)');
          await expectNoHorizontalScroll(page);
          await screenshot(page, name, shown);
        }
        // A 404 logs "Failed to load resource" for the page itself; nothing else may complain.
        expect(problems.filter((problem) => !problem.includes('404'))).toEqual([]);
      } finally {
        await close();
      }
    },
    60_000,
  );

  it('starts with a skip link to the content, for keyboard users', async () => {
    const { page, close } = await openPage(env, '/');
    try {
      await page.keyboard.press('Tab');
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Lompat ke isi');
      await page.keyboard.press('Enter');
      expect(await focusedId(page)).toBe('isi');
    } finally {
      await close();
    }
  });

  it('opens an endpoint from the landing page\'s "Coba" link', async () => {
    const { page, close } = await openPage(env, '/');
    try {
      await page.getByRole('link', { name: 'Coba: /catalog/genres', exact: true }).click();
      await page.waitForURL(`${env.baseUrl}/catalog/genres`);
      expect(JSON.parse((await page.locator('body').textContent()) as string).status).toBe('success');
    } finally {
      await close();
    }
  });
});

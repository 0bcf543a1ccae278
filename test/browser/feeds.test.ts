import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFeed } from '../helpers/feedReader.js';
import { openPage, screenshot, startBrowserStack, type BrowserStack } from './browser.js';

let env: BrowserStack;

beforeAll(async () => {
  env = await startBrowserStack();
});
afterAll(() => env.close());

describe('feed discovery in Chromium', () => {
  it('the landing page announces the latest feed in Atom and RSS, and the links resolve to those feeds', async () => {
    const { page, close } = await openPage(env, '/');
    try {
      // What a feed reader or a browser extension reads: the resolved href of each alternate link.
      const alternates = await page.evaluate<{ type: string; title: string; href: string }[]>(
        '[...document.querySelectorAll(\'head link[rel="alternate"]\')].map((link) => ({ type: link.type, title: link.title, href: link.href }))',
      );
      expect(alternates).toEqual([
        { type: 'application/atom+xml', title: 'Episode terbaru (Atom 1.0)', href: `${env.baseUrl}/feeds/latest.atom` },
        { type: 'application/rss+xml', title: 'Episode terbaru (RSS 2.0)', href: `${env.baseUrl}/feeds/latest.rss` },
      ]);
      for (const [alternate, format] of [
        [alternates[0]!, 'atom'],
        [alternates[1]!, 'rss'],
      ] as const) {
        const response = await page.request.get(alternate.href);
        expect(response.status()).toBe(200);
        expect(response.headers()['content-type']).toBe(`${alternate.type}; charset=utf-8`);
        const feed = await readFeed(await response.text(), format);
        expect(feed.selfLink).toBe(alternate.href);
        expect(feed.entries.length).toBe(20);
      }
      await page.locator('#feed').scrollIntoViewIfNeeded();
      await screenshot(page, 'landing-feeds', 'window');
    } finally {
      await close();
    }
  });
});

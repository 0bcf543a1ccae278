import type { Page } from 'playwright-core';
import * as sim from '../simulator/catalog.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoHorizontalScroll, openPage, screenshot, startBrowserStack, WIDTHS, type BrowserStack } from './browser.js';

let env: BrowserStack;

beforeAll(async () => {
  env = await startBrowserStack({ RATE_LIMIT_MAX: '4' });
});
afterAll(() => env.close());

const result = (page: Page, section: string, field: string) =>
  page.locator(`section:has(#${section}) [data-field="${field}"]`).textContent();

describe('the API reference in Chromium', () => {
  it('"Coba" sends the request and shows status, headers, time and the pretty body', async () => {
    const { page, close } = await openPage(env, '/docs');
    try {
      await page.getByRole('button', { name: 'Coba GET /catalog/search' }).click();
      await expect.poll(() => result(page, 'catalog-search', 'status')).toBe('200 OK');
      expect(await result(page, 'catalog-search', 'summary')).toBe('GET /catalog/search?q=soul');
      expect(await result(page, 'catalog-search', 'x-cache')).toBe('MISS');
      expect(await result(page, 'catalog-search', 'x-ratelimit-remaining')).toBe('3');
      expect(await result(page, 'catalog-search', 'retry-after')).toBe('—');
      expect(await result(page, 'catalog-search', 'time')).toMatch(/^\d+ ms$/);
      const body = JSON.parse((await result(page, 'catalog-search', 'body')) as string);
      expect(body.status).toBe('success');
      expect(body.data.query).toBe('soul');
      expect(body.data.results.map((series: { title: string }) => series.title)).toEqual(
        sim.search('soul', 1).items.map((series) => series.title),
      );
      // Pretty-printed, two spaces per level.
      expect(await result(page, 'catalog-search', 'body')).toContain('\n  "data": {\n    "query": "soul"');
      // Again: the request reaches the server (not the browser's cache), which answers from its cache.
      await page.getByRole('button', { name: 'Coba GET /catalog/search' }).click();
      await expect.poll(() => result(page, 'catalog-search', 'x-cache')).toBe('HIT');
      expect(await result(page, 'catalog-search', 'x-ratelimit-remaining')).toBe('2');
      await page.locator('section:has(#catalog-search) [data-try-result]').scrollIntoViewIfNeeded();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await expectNoHorizontalScroll(page);
        await screenshot(page, 'docs', 'window');
      }

      // A parameter the server refuses: the answer is shown as it is.
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.locator('#catalog-ongoing-series-page').fill('0');
      await page.getByRole('button', { name: 'Coba GET /catalog/ongoing-series' }).click();
      await expect.poll(() => result(page, 'catalog-ongoing-series', 'status')).toBe('400 Bad Request');
      expect(JSON.parse((await result(page, 'catalog-ongoing-series', 'body')) as string).error.code).toBe('INVALID_PARAMETER');

      // The last request of the quota passes; the next shows 429 and Retry-After.
      await page.getByRole('button', { name: 'Coba GET /catalog/genres', exact: true }).click();
      await expect.poll(() => result(page, 'catalog-genres', 'status')).toBe('200 OK');
      expect(await result(page, 'catalog-genres', 'x-ratelimit-remaining')).toBe('0');
      await page.getByRole('button', { name: 'Coba GET /catalog/genres', exact: true }).click();
      await expect.poll(() => result(page, 'catalog-genres', 'status')).toBe('429 Too Many Requests');
      expect(Number(await result(page, 'catalog-genres', 'retry-after'))).toBeGreaterThan(3500);
      expect(await result(page, 'catalog-genres', 'x-ratelimit-remaining')).toBe('0');
    } finally {
      await close();
    }
    // Seven answers and two full-page pictures of the whole reference (code samples and feeds included):
    // the bound is for a hang, not for speed.
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/catalog/endpoints/index.js';
import { docsSampleBlocks, shownMismatch } from '../helpers/docsSamples.js';
import { expectNoHorizontalScroll, focusedId, openPage, screenshot, startBrowserStack, WIDTHS, type BrowserStack } from './browser.js';

// The JavaScript samples of /docs run in Chromium on the page itself, as a person pastes one into the
// browser's console there; the language tabs and Copy buttons; the samples without JavaScript and at 360 px.

let env: BrowserStack;

beforeAll(async () => {
  env = await startBrowserStack();
});
afterAll(() => env.close());

describe('the code samples of /docs in Chromium', () => {
  it('runs every JavaScript sample on the page: it logs what the app answers to that request', async () => {
    const { page, close } = await openPage(env, '/docs');
    try {
      const blocks = docsSampleBlocks(await page.content());
      // Every endpoint of the table, POST /api/reports, and whatever else the page documents.
      expect(blocks.length).toBeGreaterThanOrEqual(endpoints.length + 1);
      const mismatches: string[] = [];
      for (const block of blocks) {
        // As the console runs pasted code (top-level await, its own scope); what it logs is handed back,
        // not taken from the page's console, where the page's own messages may come first.
        const logged = await page.evaluate(
          `(async () => {\nlet logged;\nconst console = { log: (value) => { logged = value; } };\n${block.code.javascript}\nreturn logged;\n})()`,
        );
        const mismatch = await shownMismatch(block, logged, env.baseUrl);
        if (mismatch !== null) mismatches.push(mismatch);
      }
      expect(mismatches).toEqual([]);
    } finally {
      await close();
    }
  }, 120_000);

  it('shows one language at a time behind tabs, the same in every block, by click or arrow key', async () => {
    const { page, close } = await openPage(env, '/docs');
    try {
      const blockCount = await page.locator('[data-code-samples]').count();
      const visible = (language: string) => page.locator(`.code-sample[data-language="${language}"]:visible`).count();
      expect([await visible('curl'), await visible('javascript'), await visible('python')]).toEqual([blockCount, 0, 0]);

      const tabs = page.getByRole('tablist', { name: 'Bahasa contoh kode untuk GET /catalog/search' });
      await tabs.getByRole('tab', { name: 'Python (requests)' }).click();
      expect([await visible('curl'), await visible('javascript'), await visible('python')]).toEqual([0, 0, blockCount]);
      expect(await tabs.getByRole('tab', { name: 'Python (requests)' }).getAttribute('aria-selected')).toBe('true');
      expect(await page.getByRole('tabpanel', { name: 'Python (requests)' }).first().isVisible()).toBe(true);

      // Arrow keys move within the tab list, round to the first from the last.
      await page.keyboard.press('ArrowRight');
      expect(await focusedId(page)).toMatch(/^code-\d+-curl-tab$/);
      expect(await visible('curl')).toBe(blockCount);
      await page.keyboard.press('ArrowRight');
      expect(await focusedId(page)).toMatch(/^code-\d+-javascript-tab$/);
      expect(await visible('javascript')).toBe(blockCount);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await expectNoHorizontalScroll(page);
        await screenshot(page, 'docs-code-tabs', page.locator('section:has(#catalog-search) [data-code-samples]'));
      }
    } finally {
      await close();
    }
  });

  it('copies a sample with its Copy button and says so', async () => {
    const { page, close } = await openPage(env, '/docs', { permissions: ['clipboard-read', 'clipboard-write'] });
    try {
      await page
        .getByRole('tablist', { name: 'Bahasa contoh kode untuk GET /catalog/search' })
        .getByRole('tab', { name: 'Python (requests)' })
        .click();
      const sample = page.locator('section:has(#catalog-search) .code-sample[data-language="python"]');
      await sample.getByRole('button', { name: 'Salin contoh Python (requests) untuk GET /catalog/search' }).click();
      await expect.poll(() => sample.locator('[data-copy-status]').textContent()).toBe('Tersalin.');
      const copied = await page.evaluate<string>('navigator.clipboard.readText()');
      expect(copied).toBe(await sample.locator('[data-code]').textContent());
      expect(copied).toContain(`requests.get("${env.baseUrl}/catalog/search?q=soul", timeout=30)`);
      // Every sample shown has its button once the script runs.
      expect(await page.locator('[data-copy]:visible').count()).toBe(await page.locator('[data-code-samples]').count());
    } finally {
      await close();
    }
  });

  it('shows the samples without JavaScript (no Copy button) and without sideways scrolling at 360 px', async () => {
    // One page resized to each width rather than loaded again: the layout follows the viewport either way.
    const { page, close } = await openPage(env, '/docs', { javaScriptEnabled: false });
    try {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        const sample = page.locator('section:has(#catalog-episode-slug) .code-sample[data-language="curl"]');
        // Every language, one under the other.
        for (const language of ['curl', 'javascript', 'python'])
          expect(
            await page.locator(`section:has(#catalog-episode-slug) .code-sample[data-language="${language}"] [data-code]`).isVisible(),
          ).toBe(true);
        expect(await sample.locator('[data-code]').textContent()).toBe(
          `curl '${env.baseUrl}/catalog/episode/renegade-immortal-episode-124-subtitle-indonesia'`,
        );
        expect(await page.locator('[data-copy]:visible').count()).toBe(0);
        await expectNoHorizontalScroll(page);
        // The endpoint's section alone: the whole reference is too long a picture.
        await screenshot(page, 'docs-code-samples', page.locator('section:has(#catalog-episode-slug)'));
      }
    } finally {
      await close();
    }
  });
});

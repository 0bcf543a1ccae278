import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedSeries } from '../helpers/seriesExpectations.js';
import { findSeries } from '../simulator/episodes.js';
import { VARIANTS } from '../simulator/variant.js';
import { openPage, startBrowserStack, type BrowserStack } from './browser.js';

let env: BrowserStack;

beforeAll(async () => {
  env = await startBrowserStack({});
});
afterAll(() => env.close());

describe('"Coba" on an endpoint with a path parameter, in Chromium', () => {
  it('puts the slug into the path and shows the answer', async () => {
    const { page, close } = await openPage(env, '/docs');
    try {
      await page.locator('#catalog-series-slug-slug').fill('the-emperors-tomb');
      await page.getByRole('button', { name: 'Coba GET /catalog/series/{slug}' }).click();
      const field = (name: string) => page.locator(`section:has(#catalog-series-slug) [data-field="${name}"]`).textContent();
      await expect.poll(() => field('status')).toBe('200 OK');
      expect(await field('summary')).toBe('GET /catalog/series/the-emperors-tomb');
      const body = JSON.parse((await field('body')) as string);
      const origin = env.stack.simulator.origin;
      const ctx = { origin, host: new URL(origin).host, variant: VARIANTS[env.stack.simulator.variant] };
      expect(body.data).toEqual(expectedSeries(ctx, findSeries('the-emperors-tomb')!));
    } finally {
      await close();
    }
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeRecord, StatusRecord, TrafficRecord } from '../../src/status/records.js';
import { SERIES } from '../simulator/dataset.js';
import { blankPage, expectNoHorizontalScroll, openPage, screenshot, startBrowserStack, WIDTHS, type BrowserStack } from './browser.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * 90 days as a visitor would find them: probes every 30 minutes (every 5 in the last day), a day
 * without any (the service was down), an anti-bot wall of two hours yesterday, a stretch of
 * timeouts three weeks ago, and the API's traffic of the last hours.
 */
function history(now: number): StatusRecord[] {
  const records: StatusRecord[] = [];
  const probe = (at: number, outcome: 'up' | 'down', code: string | null, durationMs: number): ProbeRecord => ({
    kind: 'probe',
    at,
    outcome,
    code,
    durationMs,
    origin: 'https://anichin.cafe',
  });
  // A whole day (midnight to midnight WIB, UTC+7) forty days ago.
  const gapStart = Math.floor((now - 40 * DAY + 7 * HOUR) / DAY) * DAY - 7 * HOUR;
  for (let at = now - 89 * DAY; at < now; at += at < now - DAY ? 30 * MINUTE : 5 * MINUTE) {
    const ago = now - at;
    if (at >= gapStart && at < gapStart + DAY) continue;
    if (ago > 20 * HOUR && ago < 22 * HOUR) records.push(probe(at, 'down', 'UPSTREAM_BLOCKED', 60));
    else if (ago > 21 * DAY && ago < 21 * DAY + 90 * MINUTE) records.push(probe(at, 'down', 'UPSTREAM_TIMEOUT', 10_000));
    else records.push(probe(at, 'up', null, 350 + Math.round(250 * Math.abs(Math.sin(at / HOUR)))));
  }
  for (let hour = Math.floor((now - 23 * HOUR) / HOUR) * HOUR; hour < now; hour += HOUR) {
    const traffic = (
      endpoint: string,
      successes: number,
      errors: Record<string, number>,
      miss: Record<string, number>,
      hit: Record<string, number>,
    ): TrafficRecord => ({
      kind: 'traffic',
      hour,
      endpoint,
      successes,
      errors,
      miss,
      hit,
    });
    records.push(traffic('/catalog/home', 120, {}, { '43': 10, '45': 2 }, { '3': 90, '5': 18 }));
    records.push(traffic('/catalog/search', 40, { INVALID_PARAMETER: 3, RATE_LIMITED: 1 }, { '44': 30 }, { '4': 10 }));
    records.push(traffic('/catalog/series/{slug}', 25, { NOT_FOUND: 2 }, { '42': 20 }, { '4': 5 }));
  }
  return records;
}

let env: BrowserStack;
beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'status-browser-'));
  writeFileSync(
    join(dataDir, 'status-history.jsonl'),
    history(Date.now())
      .map((record) => `${JSON.stringify(record)}\n`)
      .join(''),
  );
  env = await startBrowserStack({ DATA_DIR: dataDir });
  // A series asked for teaches the site's paths, which the page shows with the long address they came from.
  expect((await fetch(`${env.baseUrl}/catalog/series/${SERIES[0]!.slug}`)).status).toBe(200);
});
afterAll(() => env.close());

describe('the status page', () => {
  it('shows state, uptime, bars, chart and incidents at 1280 and 360 px, without sideways scrolling or CSP violations', async () => {
    // Blank first, so the listeners below are in place before the page under test loads.
    const { page, close } = await blankPage(env);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    // Chromium asks for /favicon.ico by itself; nothing else may fail to load.
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) failed.push(response.url());
    });
    try {
      // Loaded once, then read at each width: the layout follows the viewport, and no script of the page reads the width.
      await page.goto(`${env.baseUrl}/status`);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        expect(await page.locator('h1').textContent()).toBe('Status layanan');
        expect(await page.locator('.status-card__state').allTextContents()).toEqual(['Normal', 'Beroperasi']);
        expect(await page.locator('.bars').nth(0).locator('.bar').count()).toBe(24);
        expect(await page.locator('.bars').nth(1).locator('.bar').count()).toBe(90);
        expect(await page.locator('.bars').nth(1).locator('rect.bar--unknown').count()).toBe(1);
        expect(await page.locator('table.table-stack').nth(1).locator('tbody tr').count()).toBe(2);
        expect(await page.locator('section[aria-labelledby="alamat"] dd').first().textContent()).toMatch(
          new RegExp(`^/seri/, dipelajari .+ WIB: http://127\\.0\\.0\\.1:\\d+/seri/${SERIES[0]!.slug}/ is a series page$`),
        );
        await expectNoHorizontalScroll(page);
        await screenshot(page, 'status');
      }
      expect(failed).toEqual([]);
      expect(
        problems.filter((problem) => !problem.startsWith('Failed to load resource: the server responded with a status of 404')),
      ).toEqual([]);
    } finally {
      await close();
    }
  });

  it('lets a keyboard user step through the bars, each with a readable name', async () => {
    const { page, close } = await openPage(env, '/status');
    try {
      await page.locator('.bars .bar').first().focus();
      const first = await page.evaluate<string>('document.activeElement.getAttribute("aria-label")');
      await page.keyboard.press('Tab');
      const second = await page.evaluate<string>('document.activeElement.getAttribute("aria-label")');
      expect(first).toMatch(
        /^\d{1,2} \w{3} \d{4}, \d\d\.00–\d\d\.00 WIB: (Normal|Gangguan|Sebagian terganggu) \(\d+ dari \d+ pemeriksaan berhasil\)$/,
      );
      expect(second).not.toBe(first);
      expect(await page.locator('.bars .bar').first().locator('title').textContent()).toBe(first);
    } finally {
      await close();
    }
  });

  it('is linked from the landing page, the docs and every footer', async () => {
    const { page, close } = await openPage(env, '/');
    try {
      await page.locator('.site-footer').getByRole('link', { name: 'Status layanan' }).click();
      await page.waitForURL(`${env.baseUrl}/status`);
      await page.goto(`${env.baseUrl}/docs`);
      expect(await page.locator('main').getByRole('link', { name: 'status layanan' }).getAttribute('href')).toBe('/status');
    } finally {
      await close();
    }
  });
});

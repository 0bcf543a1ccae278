import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredReport } from '../../src/reports/schema.js';
import { expectNoHorizontalScroll, focusedId, openPage, screenshot, startBrowserStack, WIDTHS, type BrowserStack } from './browser.js';

let env: BrowserStack;

beforeAll(async () => {
  env = await startBrowserStack();
});
afterAll(() => env.close());

function storedReports(): StoredReport[] {
  try {
    return readFileSync(join(env.stack.config.DATA_DIR, 'reports.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as StoredReport);
  } catch {
    return [];
  }
}

const openForm = (options: { javaScriptEnabled?: boolean; width?: number; query?: string } = {}) =>
  openPage(env, `/report${options.query ?? ''}`, options);

async function fillValid(page: Page, title = 'Poster hilang di halaman 2') {
  await page.getByLabel('Data Salah').check();
  await page.getByLabel('Endpoint').selectOption('/catalog/ongoing-series');
  await page.getByLabel('Judul singkat').fill(title);
  await page.getByLabel('Deskripsi').fill('Beberapa poster bernilai null.\nPadahal di situs sumber ada gambarnya 🙂');
  await page.getByLabel('Sedang').check();
}

const errorText = (page: Page, field: string) => page.locator(`#${field}-error`).textContent();

describe('the Report Center in Chromium', () => {
  it('updates the counters while typing, counting an emoji once', async () => {
    const { page, close } = await openForm();
    try {
      await expect.poll(() => page.locator('#title-counter').textContent()).toBe('0/100');
      await page.getByLabel('Judul singkat').pressSequentially('Halo');
      expect(await page.locator('#title-counter').textContent()).toBe('4/100');
      await page.getByLabel('Judul singkat').pressSequentially(' 😀');
      expect(await page.locator('#title-counter').textContent()).toBe('6/100');
      await page.getByLabel('Judul singkat').fill('x'.repeat(101));
      expect(await page.locator('#title-counter').textContent()).toBe('101/100');
      expect(await page.locator('#title-counter').getAttribute('class')).toBe('counter counter--over');
      await page.getByLabel('Deskripsi').pressSequentially('baris satu\nbaris dua');
      expect(await page.locator('#description-counter').textContent()).toBe('20/1000');
    } finally {
      await close();
    }
  });

  it('blocks sending while required fields are empty, with a message beside each', async () => {
    const { page, close } = await openForm();
    try {
      const before = storedReports().length;
      await page.getByRole('button', { name: 'Kirim Laporan' }).click();
      expect(new URL(page.url()).pathname).toBe('/report');
      expect(await errorText(page, 'category')).toBe('Pilih kategori laporan.');
      expect(await errorText(page, 'endpoint')).toBe('Pilih endpoint yang bermasalah, atau "Lainnya / Tidak spesifik".');
      expect(await errorText(page, 'title')).toBe('Tulis judul singkat.');
      expect(await errorText(page, 'description')).toBe('Tulis deskripsi masalahnya.');
      expect(await errorText(page, 'severity')).toBe('Pilih tingkat keparahan.');
      // Focus goes to the first wrong field, so a keyboard or screen-reader user lands on it.
      expect(await focusedId(page)).toBe('category-bug');
      expect(await page.getByLabel('Judul singkat').getAttribute('aria-invalid')).toBe('true');
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await expectNoHorizontalScroll(page);
        await screenshot(page, 'report-errors');
      }

      // Fixing a field clears its message as one types.
      await page.getByLabel('Judul singkat').fill('   ');
      expect(await errorText(page, 'title')).toBe('Isian ini tidak boleh hanya berisi spasi.');
      await page.getByLabel('Judul singkat').fill('x'.repeat(101));
      expect(await errorText(page, 'title')).toBe('Maksimal 100 karakter (sekarang 101).');
      await page.getByLabel('Judul singkat').fill('Judul yang pas');
      expect(await page.locator('#title-error').isHidden()).toBe(true);
      expect(await page.getByLabel('Judul singkat').getAttribute('aria-invalid')).toBeNull();
      expect(storedReports()).toHaveLength(before);
    } finally {
      await close();
    }
  });

  it('sends a full report, lands on "Laporan Terkirim!", and the report is in the file', async () => {
    const { page, close } = await openForm();
    try {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await expectNoHorizontalScroll(page);
        await screenshot(page, 'report-empty');
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await fillValid(page);
      await page.getByRole('button', { name: 'Kirim Laporan' }).click();
      await page.waitForURL(/\/report\/sent\//);

      expect(await page.locator('h1').textContent()).toBe('Laporan Terkirim!');
      expect(await page.locator('.lead').textContent()).toBe('Terima kasih. Laporan Anda sudah kami terima dan akan ditinjau.');
      const id = (await page.locator('[data-report-id]').textContent()) as string;
      expect(page.url()).toBe(`${env.baseUrl}/report/sent/${id}`);
      const stored = storedReports().find((report) => report.id === id);
      expect(stored).toMatchObject({
        category: 'wrong-data',
        endpoint: '/catalog/ongoing-series',
        title: 'Poster hilang di halaman 2',
        description: 'Beberapa poster bernilai null.\nPadahal di situs sumber ada gambarnya 🙂',
        severity: 'medium',
      });
      expect(stored?.userAgent).toContain('Chrome/');
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await expectNoHorizontalScroll(page);
        await screenshot(page, 'report-sent');
      }
      await page.getByRole('link', { name: 'Kembali ke beranda' }).click();
      expect(new URL(page.url()).pathname).toBe('/');
    } finally {
      await close();
    }
  });

  it('works without JavaScript: the server checks, keeps what was typed, and then accepts', async () => {
    const { page, close } = await openForm({ javaScriptEnabled: false, width: 360 });
    try {
      // A title of spaces passes the browser's own "required" check; the server refuses it.
      await fillValid(page, '    ');
      await page.getByRole('button', { name: 'Kirim Laporan' }).click();
      await page.waitForLoadState();
      expect(new URL(page.url()).pathname).toBe('/report');
      expect(await errorText(page, 'title')).toBe('Isian ini tidak boleh hanya berisi spasi.');
      expect(await page.locator('[data-error-summary]').textContent()).toContain(
        'Judul singkat: Isian ini tidak boleh hanya berisi spasi.',
      );
      expect(await page.getByLabel('Endpoint').inputValue()).toBe('/catalog/ongoing-series');
      expect(await page.getByLabel('Data Salah').isChecked()).toBe(true);
      expect(await page.getByLabel('Sedang').isChecked()).toBe(true);
      expect(await page.getByLabel('Deskripsi').inputValue()).toBe(
        'Beberapa poster bernilai null.\nPadahal di situs sumber ada gambarnya 🙂',
      );
      await expectNoHorizontalScroll(page);
      await screenshot(page, 'report-nojs-errors');

      await page.getByLabel('Judul singkat').fill('Tanpa JavaScript');
      await page.getByRole('button', { name: 'Kirim Laporan' }).click();
      await page.waitForURL(/\/report\/sent\//);
      expect(await page.locator('h1').textContent()).toBe('Laporan Terkirim!');
      const id = (await page.locator('[data-report-id]').textContent()) as string;
      expect(storedReports().find((report) => report.id === id)?.title).toBe('Tanpa JavaScript');
    } finally {
      await close();
    }
  });

  it("is pre-filled from an API error's reportUrl", async () => {
    const { page, close } = await openForm({ query: '?endpoint=%2Fcatalog%2Fhome&category=api-down' });
    try {
      expect(await page.getByLabel('Endpoint').inputValue()).toBe('/catalog/home');
      expect(await page.getByLabel('API Mati / Down').isChecked()).toBe(true);
    } finally {
      await close();
    }
  });

  it('can be filled in by keyboard alone, in the order the fields are shown', async () => {
    const { page, close } = await openForm();
    try {
      const order: string[] = [];
      await page.getByLabel('Bug / Error').focus();
      for (let i = 0; i < 6; i++) {
        order.push(await page.evaluate('document.activeElement.getAttribute("name") ?? document.activeElement.textContent'));
        await page.keyboard.press('Tab');
      }
      expect(order).toEqual(['category', 'endpoint', 'title', 'description', 'severity', 'Kirim Laporan']);
    } finally {
      await close();
    }
  });
});

import { readFileSync } from 'node:fs';
import { load, type CheerioAPI } from 'cheerio';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleFor } from '../../src/openapi/examples/index.js';
import { ErrorEnvelope } from '../../src/contract/schemas.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

let stack: TestStack;

beforeAll(async () => {
  // The contract's quota, which the pages must state (the test stack's default is far higher).
  stack = await startTestStack({ env: { RATE_LIMIT_MAX: '50' } });
});
afterAll(() => stack.close());

const squash = (value: string) => value.replace(/\s+/g, ' ').trim();
const text = ($: CheerioAPI, selector: string) => squash($(selector).text());
/** Each row of a table as its cells' text, joined by one space. */
const rows = ($: CheerioAPI, selector: string) =>
  $(selector)
    .map((_, row) =>
      $(row)
        .children('td, th')
        .map((__, cell) => squash($(cell).text()))
        .get()
        .join(' '),
    )
    .get();
/** Each matched element's text, white space squashed. */
const texts = ($: CheerioAPI, selector: string) =>
  $(selector)
    .map((_, el) => squash($(el).text()))
    .get();

const ENDPOINT_PATHS = [
  '/catalog/home',
  '/catalog/search',
  '/catalog/genres',
  '/catalog/ongoing-series',
  '/catalog/popular-series',
  '/catalog/new-movie',
  '/catalog/series/{slug}',
  '/catalog/episode/{slug}',
  '/catalog/completed-series',
  '/catalog/genres/{slug}',
  '/catalog/studios/{slug}',
  '/catalog/networks/{slug}',
  '/catalog/countries/{slug}',
  '/catalog/seasons/{slug}',
  '/catalog/schedule',
  '/catalog/az-list',
  '/catalog/series',
];
const FEED_PATHS = ['/feeds/latest.{atom,rss,json}', '/feeds/series/{slug}.{atom,rss,json}', '/feeds/movies.{atom,rss,json}'];

/** Every script, stylesheet, image and form target of a page is on our own origin. */
function expectOnlyOwnResources($: CheerioAPI) {
  const urls = [
    ...$('script[src]')
      .map((_, el) => $(el).attr('src'))
      .get(),
    ...$('link[href]')
      .map((_, el) => $(el).attr('href'))
      .get(),
    ...$('img[src]')
      .map((_, el) => $(el).attr('src'))
      .get(),
  ];
  for (const url of urls) expect(url).toMatch(/^\/[^/]/);
  expect($('script:not([src])').length).toBe(0);
  expect($('[style]').length).toBe(0);
}

describe('GET / (landing page)', () => {
  it('is an Indonesian page that lists the six endpoints with a link that tries each', async () => {
    const response = await request(stack.app).get('/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const $ = load(response.text);
    expect($('html').attr('lang')).toBe('id');
    expect($('h1').text()).toBe('Donghua Catalog API');
    expect(text($, '.base-url')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(
      $('.endpoint-card code')
        .filter((_, el) => $(el).parent().hasClass('endpoint-card__path'))
        .map((_, el) => $(el).text())
        .get(),
    ).toEqual([...ENDPOINT_PATHS, ...FEED_PATHS]);
    expect(
      $('.endpoint-card__links a:first-child')
        .map((_, el) => $(el).attr('href'))
        .get(),
    ).toEqual([
      '/catalog/home',
      '/catalog/search?q=soul',
      '/catalog/genres',
      '/catalog/ongoing-series?page=2',
      '/catalog/popular-series',
      '/catalog/new-movie',
      '/catalog/series/renegade-immortal',
      '/catalog/episode/renegade-immortal-episode-124-subtitle-indonesia',
      '/catalog/completed-series?page=2',
      '/catalog/genres/action',
      '/catalog/studios/build-dream',
      '/catalog/networks/tencent-video',
      '/catalog/countries/china',
      '/catalog/seasons/2025',
      '/catalog/schedule',
      '/catalog/az-list?letter=R',
      '/catalog/series?status=ongoing&order=popular&genre=action%2Cfantasy',
      '/feeds/latest.atom',
      '/feeds/series/renegade-immortal.atom',
      '/feeds/movies.atom',
    ]);
    expect($('.endpoint-card p:nth-child(2)').first().text()).toBe('Beranda: slider, populer hari ini, rilis terbaru, dan rekomendasi');
    expect($('a[href="/docs"]').length).toBeGreaterThan(0);
    expect($('a[href="/report"]').length).toBeGreaterThan(0);
    expectOnlyOwnResources($);
  });

  it('states the real rate limit, its headers and what to do on 429', async () => {
    const $ = load((await request(stack.app).get('/')).text);
    const section = text($, 'section:has(#batas)');
    expect(section).toContain('Setiap alamat IP boleh membuat 50 permintaan per 1 jam ke /catalog/*.');
    expect(section).toContain('X-RateLimit-Limit: batas per jendela waktu (50).');
    expect(section).toContain('X-RateLimit-Remaining: sisa permintaan di jendela ini.');
    expect(section).toContain('X-RateLimit-Reset: kapan jendela direset, dalam Unix time (detik).');
    expect(section).toContain('Permintaan ke-51 dalam satu jendela dijawab 429 RATE_LIMITED dengan Retry-After');
    expect(section).toContain('tunggu selama Retry-After, lalu coba lagi');
    expect(section).toContain('Laporan ke Report Center punya kuota sendiri: 5 laporan per 1 jam per IP.');
    expect(section).not.toMatch(/tanpa batas|no limit/i);
  });

  it("states each endpoint's cache time and the cache headers", async () => {
    const $ = load((await request(stack.app).get('/')).text);
    expect(rows($, 'section:has(#cache) table:has(caption:contains("Berapa lama")) tbody tr')).toEqual([
      '/catalog/home 5 menit',
      '/catalog/search 10 menit',
      '/catalog/genres 12 jam',
      '/catalog/ongoing-series 10 menit',
      '/catalog/popular-series 30 menit',
      '/catalog/new-movie 30 menit',
      '/catalog/series/{slug} 10 menit',
      '/catalog/episode/{slug} 1 jam',
      '/catalog/completed-series 10 menit',
      '/catalog/genres/{slug} 10 menit',
      '/catalog/studios/{slug} 10 menit',
      '/catalog/networks/{slug} 10 menit',
      '/catalog/countries/{slug} 10 menit',
      '/catalog/seasons/{slug} 1 jam',
      '/catalog/schedule 30 menit',
      '/catalog/az-list 1 jam',
      '/catalog/series 10 menit',
    ]);
    const section = text($, 'section:has(#cache)');
    expect(rows($, 'section:has(#cache) table:has(caption:contains("Arti")) tbody tr')).toEqual([
      'HIT Masih segar, dari yang disimpan layanan (memori, disk, atau Redis), tanpa menghubungi situs sumber.',
      'MISS Baru diambil dari situs sumber untuk permintaan ini (permintaan yang datang bersamaan berbagi satu pengambilan).',
      'STALE Sudah lewat masa segarnya, dikirim tanpa menunggu situs sumber: versi baru sedang diambil, atau, bila ada meta.stale, situs sumber gagal (lihat di bawah).',
    ]);
    expect(section).toContain('Cache-Control: public, max-age=<sisa detik segar>');
    expect(section).toContain('ETag (lemah). Kirim kembali sebagai If-None-Match');
    expect(section).toContain('304 Not Modified');
    expect(section).toContain('(hingga 24 jam) bisa tetap dikirim dengan X-Cache: STALE');
  });

  it('reads the limits and cache times from the configuration', async () => {
    const configured = await startTestStack({
      env: {
        RATE_LIMIT_MAX: '20',
        RATE_LIMIT_WINDOW_S: '600',
        CACHE_TTL_OVERRIDES: '/catalog/genres=3600',
        STALE_WHILE_REVALIDATE_S: '7200',
      },
    });
    try {
      const $ = load((await request(configured.app).get('/')).text);
      expect(text($, 'section:has(#batas)')).toContain('Setiap alamat IP boleh membuat 20 permintaan per 10 menit ke /catalog/*.');
      expect(rows($, 'section:has(#cache) table:has(caption:contains("Berapa lama")) tbody tr')[2]).toBe('/catalog/genres 1 jam');
      expect(text($, 'section:has(#cache)')).toContain('(hingga 2 jam)');
    } finally {
      await configured.close();
    }
  });

  it("sends helmet's headers with a CSP that allows only our own scripts and styles", async () => {
    const response = await request(stack.app).get('/');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'self';base-uri 'self';font-src 'self';form-action 'self';frame-ancestors 'none';img-src 'self' data:;" +
        "object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self';connect-src 'self'",
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('does not count against the API quota, nor do the other pages', async () => {
    const limited = await startTestStack({ env: { RATE_LIMIT_MAX: '1' } });
    try {
      for (const path of ['/', '/docs', '/report', '/openapi.json', '/css/site.css', '/js/try-it.js', '/', '/docs'])
        expect((await request(limited.app).get(path)).status).toBe(200);
      expect((await request(limited.app).get('/catalog/genres')).status).toBe(200);
      expect((await request(limited.app).get('/catalog/genres')).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('GET /docs (API reference)', () => {
  it('documents each endpoint from the schemas: parameters, example, errors and a "Coba" form', async () => {
    const response = await request(stack.app).get('/docs');
    expect(response.status).toBe(200);
    const $ = load(response.text);
    expect($('h1').text()).toBe('Referensi API');
    expectOnlyOwnResources($);
    expect(
      $('script[src]')
        .map((_, el) => $(el).attr('src'))
        .get(),
    ).toEqual(['/js/try-it.js', '/js/code-samples.js']);

    const sections = $('section.endpoint-doc');
    expect(sections.map((_, el) => squash($(el).children('h2').text())).get()).toEqual([
      ...[...ENDPOINT_PATHS, ...FEED_PATHS].map((path) => `GET ${path}`),
      'GET /export/catalog.{json,jsonl,schema.json}',
      'POST /api/reports',
    ]);

    const search = load($('section:has(#catalog-search)').html() as string);
    expect(rows(search, 'tbody tr')).toEqual([
      'q ya teks 1–100 karakter (emoji dihitung satu)',
      'page tidak bilangan bulat 1–500; bawaan 1',
      'source tidak salah satu dari: site, catalog; bawaan site',
    ]);
    expect(search('form.try-it').attr('action')).toBe('/catalog/search');
    expect(search('form.try-it').attr('method')).toBe('get');
    expect(search('#catalog-search-q').attr('value')).toBe('soul');
    expect(search('#catalog-search-q').attr('required')).toBe('required');
    expect(search('#catalog-search-page').attr('required')).toBeUndefined();
    expect(JSON.parse(search('details pre code').text())).toEqual(exampleFor('/catalog/search').response);
    expect(texts(search, '.error-list li')).toEqual([
      '400 INVALID_PARAMETER',
      '404 NOT_FOUND',
      '405 METHOD_NOT_ALLOWED',
      '429 RATE_LIMITED',
      '502 UPSTREAM_ERROR',
      '502 UPSTREAM_LAYOUT_CHANGED',
      '503 UPSTREAM_BLOCKED',
      '503 UPSTREAM_UNAVAILABLE',
      '504 UPSTREAM_TIMEOUT',
      '503 SERVICE_BUSY',
      '503 CATALOG_NOT_READY',
      '500 INTERNAL_ERROR',
    ]);
    expect(text(search, 'p')).toContain('Segar di cache selama 10 menit.');

    const genres = load($('section:has(#catalog-genres)').html() as string);
    expect(text(genres, 'p')).toContain('Tanpa parameter.');
    expect(genres('form.try-it input').length).toBe(0);
    expect(genres('.error-list li').first().text()).toBe('404 NOT_FOUND');
    // Only the search can answer from the local catalog, so only it lists the crawler's not-ready code.
    expect(texts(genres, '.error-list li')).not.toContain('503 CATALOG_NOT_READY');
    expect(rows($, 'section:has(#kode-error) tbody tr').map((row) => row.split(' ').slice(0, 2).join(' '))).toContain(
      '503 REPORT_NOT_STORED',
    );
  });

  it('has the error table, the rate limit and the cache note', async () => {
    const $ = load((await request(stack.app).get('/docs')).text);
    expect($('section:has(#kode-error) tbody tr').length).toBe(19);
    expect(rows($, 'section:has(#kode-error) tbody tr')[0]).toBe(
      '400 INVALID_PARAMETER Parameter query atau isian body kosong atau melanggar aturannya; details menyebut tiap isian dan aturannya',
    );
    expect(rows($, 'section:has(#kode-error) tbody tr').map((row) => row.split(' ').slice(0, 2).join(' '))).toContain('503 SERVICE_BUSY');
    expect(rows($, 'section:has(#kode-error) tbody tr').map((row) => row.split(' ').slice(0, 2).join(' '))).toContain(
      '503 CATALOG_NOT_READY',
    );
    expect(text($, 'section:has(#batas)')).toContain('50 permintaan per 1 jam');
    expect(text($, 'section:has(#cache)')).toContain('X-Cache: STALE');
  });

  it('lists every environment variable of .env.example, in its order, with its default and what it does', async () => {
    const $ = load((await request(stack.app).get('/docs')).text);
    const documented = $('section:has(#konfigurasi) tbody tr')
      .map((_, row) => [[$(row).children('td').eq(0).text(), $(row).children('td').eq(1).text()]])
      .get() as unknown as [string, string][];
    const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z]/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1) || 'tidak diisi']);
    expect(documented).toEqual(example);
    expect(rows($, 'section:has(#konfigurasi) tbody tr')[0]).toBe('PORT 3000 Port tempat layanan mendengarkan.');
    expect($('nav.toc a[href="#konfigurasi"]').text()).toBe('Menjalankan sendiri: variabel lingkungan');
  });

  it('documents POST /api/reports with the report fields and their rules', async () => {
    const $ = load((await request(stack.app).get('/docs')).text);
    const reports = load($('section:has(#api-reports)').html() as string);
    expect(rows(reports, 'tbody tr')).toEqual([
      'category ya salah satu dari: bug, api-down, wrong-data, slow, feature, other',
      'endpoint ya salah satu dari: /catalog/home, /catalog/search, /catalog/genres, /catalog/ongoing-series, /catalog/popular-series, /catalog/new-movie, other',
      'title ya teks 1–100 karakter (emoji dihitung satu)',
      'description ya teks 1–1000 karakter (emoji dihitung satu)',
      'severity ya salah satu dari: low, medium, high, critical',
      'website tidak harus kosong atau tidak dikirim',
    ]);
    expect(text(reports, 'p')).toContain('paling besar 32 KB');
    expect(text(reports, 'p')).toContain('Kuota: 5 laporan per 1 jam per IP.');
  });
});

describe('errors for people and for clients', () => {
  it('answers a browser with an Indonesian error page', async () => {
    const response = await request(stack.app).get('/tidak-ada').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const $ = load(response.text);
    expect($('h1').text()).toBe('Halaman tidak ditemukan');
    expect($('.lead').text()).toBe('HTTP 404 · NOT_FOUND');
    expect($('main code').last().text()).toBe(response.headers['x-request-id']);
    expect($('a[href^="/report?"]').attr('href')).toBe('/report?endpoint=other&category=bug');
  });

  it('answers a client without Accept, and /catalog/* even in a browser, with the JSON envelope', async () => {
    const plain = await request(stack.app).get('/tidak-ada');
    expect(plain.status).toBe(404);
    expect(ErrorEnvelope.parse(plain.body).error.code).toBe('NOT_FOUND');
    const api = await request(stack.app).get('/catalog/home?page=0').set('Accept', 'text/html');
    expect(api.status).toBe(400);
    expect(api.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('serves the stylesheet and scripts from our own origin', async () => {
    for (const [path, type] of [
      ['/css/site.css', 'text/css; charset=utf-8'],
      ['/js/report-form.js', 'text/javascript; charset=utf-8'],
      ['/js/try-it.js', 'text/javascript; charset=utf-8'],
    ]) {
      const response = await request(stack.app).get(path as string);
      expect([path, response.status, response.headers['content-type']]).toEqual([path, 200, type]);
    }
  });
});

import { readFileSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { load } from 'cheerio';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../src/contract/schemas.js';
import { hashIp } from '../../src/reports/ipHash.js';
import type { StoredReport } from '../../src/reports/schema.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

let stack: TestStack;
let reportsFile: string;

beforeAll(async () => {
  stack = await startTestStack({ env: { REPORT_RATE_LIMIT_MAX: '10000' } });
  reportsFile = join(stack.config.DATA_DIR, 'reports.jsonl');
});
afterAll(() => stack.close());

function storedReports(): StoredReport[] {
  let text: string;
  try {
    text = readFileSync(reportsFile, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as StoredReport);
}

const valid = {
  category: 'bug',
  endpoint: '/catalog/home',
  title: 'Slider kosong',
  description: 'Slider di /catalog/home kosong sejak pagi.',
  severity: 'high',
};

const CATEGORY_RULE = 'category must be one of: bug, api-down, wrong-data, slow, feature, other';
const ENDPOINT_RULE =
  'endpoint must be one of: /catalog/home, /catalog/search, /catalog/genres, /catalog/ongoing-series, /catalog/popular-series, /catalog/new-movie, other';
const SEVERITY_RULE = 'severity must be one of: low, medium, high, critical';

function expectInvalid(response: request.Response, details: { field: string; rule: string; message: string }[]) {
  expect(response.status).toBe(400);
  const body = ErrorEnvelope.parse(response.body);
  expect(body.error.code).toBe('INVALID_PARAMETER');
  expect(body.error.details).toEqual(details);
  const fields = [...new Set(details.map((detail) => detail.field))];
  expect(body.error.message).toBe(`Invalid field${fields.length > 1 ? 's' : ''}: ${fields.join(', ')}. See details.`);
}

describe('POST /api/reports', () => {
  let before: number;
  beforeEach(() => {
    before = storedReports().length;
  });

  it('stores a valid report durably and answers 201 with its id', async () => {
    const sentAt = Date.now();
    const response = await request(stack.app).post('/api/reports').set('User-Agent', 'report-test/1.0').send(valid);
    const answeredAt = Date.now();
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Object.keys(response.body)).toEqual(['status', 'data']);
    expect(response.body.status).toBe('success');
    expect(response.body.data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // Created while the request was under way (to the second, if it is written in whole seconds).
    expect(Date.parse(response.body.data.createdAt)).toBeGreaterThanOrEqual(Math.floor(sentAt / 1000) * 1000);
    expect(Date.parse(response.body.data.createdAt)).toBeLessThanOrEqual(answeredAt);

    const stored = storedReports().at(-1) as StoredReport;
    const salt = Buffer.from(readFileSync(join(stack.config.DATA_DIR, 'ip-hash.salt'), 'utf8').trim(), 'hex');
    expect(stored).toEqual({
      id: response.body.data.id,
      createdAt: response.body.data.createdAt,
      ...valid,
      userAgent: 'report-test/1.0',
      ipHash: hashIp(salt, '127.0.0.1'),
    });
    // The IP itself is never written.
    expect(readFileSync(reportsFile, 'utf8')).not.toContain('127.0.0.1');
    expect(salt).toHaveLength(32);
    expect(statSync(join(stack.config.DATA_DIR, 'ip-hash.salt')).mode & 0o777).toBe(0o600);
  });

  it('keeps the text as typed (it is escaped where it is shown)', async () => {
    const title = '  <b>Hai</b> & "kutip" \u{1F600} ';
    const response = await request(stack.app)
      .post('/api/reports')
      .send({ ...valid, title });
    expect(response.status).toBe(201);
    expect(storedReports().at(-1)?.title).toBe(title);
  });

  it.each([
    ['a title of 100 characters', { title: 'a'.repeat(100) }],
    ['a title of 100 emoji (200 UTF-16 units)', { title: '\u{1F600}'.repeat(100) }],
    ['a description of 1000 characters', { description: 'd'.repeat(1000) }],
    ['an empty honeypot', { website: '' }],
    ['every category', { category: 'other' }],
    ['the "other" endpoint', { endpoint: 'other' }],
  ])('accepts %s', async (_case, change) => {
    const response = await request(stack.app)
      .post('/api/reports')
      .send({ ...valid, ...change });
    expect(response.status).toBe(201);
    expect(storedReports()).toHaveLength(before + 1);
  });

  it('counts a CRLF line break once and stores it as LF', async () => {
    const description = `${'d'.repeat(998)}\r\ne`;
    const response = await request(stack.app)
      .post('/api/reports')
      .send({ ...valid, description });
    expect(response.status).toBe(201);
    expect(storedReports().at(-1)?.description).toBe(`${'d'.repeat(998)}\ne`);
  });

  it.each(['category', 'endpoint', 'title', 'description', 'severity'])('refuses a report without %s', async (field) => {
    const { [field as keyof typeof valid]: _left, ...rest } = valid;
    expectInvalid(await request(stack.app).post('/api/reports').send(rest), [{ field, rule: 'required', message: `${field} is required` }]);
    expect(storedReports()).toHaveLength(before);
  });

  it.each<[string, Record<string, unknown>, string, string, string]>([
    ['an empty title', { title: '' }, 'title', 'required', 'title is required'],
    ['a whitespace-only title', { title: ' \t ' }, 'title', 'not blank', 'title must not be blank'],
    ['a whitespace-only description', { description: '\n \n' }, 'description', 'not blank', 'description must not be blank'],
    ['a title of a zero-width space', { title: '\u200B' }, 'title', 'not blank', 'title must not be blank'],
    ['a title of a NUL', { title: '\u0000' }, 'title', 'not blank', 'title must not be blank'],
    [
      'a description of zero-width and control characters',
      { description: '\u200B\u200D\uFEFF\u0007 \u2060' },
      'description',
      'not blank',
      'description must not be blank',
    ],
    ['a title of 101 characters', { title: 'a'.repeat(101) }, 'title', 'max 100 characters', 'title must be at most 100 characters'],
    ['a title of 101 emoji', { title: '\u{1F600}'.repeat(101) }, 'title', 'max 100 characters', 'title must be at most 100 characters'],
    [
      'a description of 1001 characters',
      { description: 'd'.repeat(1001) },
      'description',
      'max 1000 characters',
      'description must be at most 1000 characters',
    ],
    ['an unknown category', { category: 'urgent' }, 'category', 'one of the choices', CATEGORY_RULE],
    ['an unknown endpoint', { endpoint: '/catalog/nope' }, 'endpoint', 'one of the choices', ENDPOINT_RULE],
    ['the endpoint placeholder', { endpoint: '' }, 'endpoint', 'required', 'endpoint is required'],
    ['an unknown severity', { severity: 'extreme' }, 'severity', 'one of the choices', SEVERITY_RULE],
    ['a title that is not text', { title: 42 }, 'title', 'text', 'title must be a string'],
    ['a title given twice', { title: ['a', 'b'] }, 'title', 'single value', 'title must be given once'],
    ['a filled honeypot', { website: 'https://spam.example' }, 'website', 'must be empty', 'website must be empty'],
  ])('refuses %s', async (_case, change, field, rule, message) => {
    expectInvalid(
      await request(stack.app)
        .post('/api/reports')
        .send({ ...valid, ...change }),
      [{ field, rule, message }],
    );
    expect(storedReports()).toHaveLength(before);
  });

  it('names every wrong field at once', async () => {
    expectInvalid(
      await request(stack.app)
        .post('/api/reports')
        .send({ title: 'a'.repeat(101), severity: 'x' }),
      [
        { field: 'category', rule: 'required', message: 'category is required' },
        { field: 'endpoint', rule: 'required', message: 'endpoint is required' },
        { field: 'title', rule: 'max 100 characters', message: 'title must be at most 100 characters' },
        { field: 'description', rule: 'required', message: 'description is required' },
        { field: 'severity', rule: 'one of the choices', message: SEVERITY_RULE },
      ],
    );
  });

  it.each<[string, string, string, string]>([
    ['broken JSON', 'application/json', '{"category":', 'JSON'],
    ['a JSON array', 'application/json', '[1,2]', 'object'],
    ['a JSON string', 'application/json', '"bug"', 'object'],
    ['a text body', 'text/plain', 'category=bug', 'object'],
  ])('refuses %s with a detail about the body', async (_case, type, body, rule) => {
    const response = await request(stack.app).post('/api/reports').set('Content-Type', type).send(body);
    expect(response.status).toBe(400);
    const envelope = ErrorEnvelope.parse(response.body);
    expect(envelope.error.details.map(({ field, rule: brokenRule }) => [field, brokenRule])).toEqual([['body', rule]]);
  });

  it('answers 413 PAYLOAD_TOO_LARGE past 32 KB', async () => {
    const response = await request(stack.app)
      .post('/api/reports')
      .send({ ...valid, description: 'd'.repeat(33 * 1024) });
    expect(response.status).toBe(413);
    const body = ErrorEnvelope.parse(response.body);
    expect(body.error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The request body is larger than 32 KB. Shorten the text and send it again.',
      details: [],
    });
  });

  it('answers 405 to anything but POST', async () => {
    const response = await request(stack.app).get('/api/reports');
    expect(response.status).toBe(405);
    expect(response.headers['allow']).toBe('POST');
    expect(ErrorEnvelope.parse(response.body).error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('stores 500 concurrent submissions as 500 intact lines with distinct ids', async () => {
    const server: Server = stack.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const responses = await Promise.all(
        Array.from({ length: 500 }, (_, n) =>
          request(server)
            .post('/api/reports')
            .send({ ...valid, title: `Laporan ${n}`, description: `Isi laporan nomor ${n}\n`.repeat(20) }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(500).fill(201));
      const ids = responses.map((response) => response.body.data.id as string);
      expect(new Set(ids).size).toBe(500);

      const lines = readFileSync(reportsFile, 'utf8').split('\n');
      expect(lines.pop()).toBe('');
      const added = lines.slice(before).map((line) => JSON.parse(line) as StoredReport);
      expect(added).toHaveLength(500);
      expect(added.map((report) => report.id).sort()).toEqual([...ids].sort());
      for (const report of added) {
        const n = Number(report.title.replace('Laporan ', ''));
        expect(report.description).toBe(`Isi laporan nomor ${n}\n`.repeat(20));
      }
    } finally {
      server.close();
    }
  });
});

describe('GET /report and POST /report (the Report Center form)', () => {
  it("shows the empty form with the contract's choices, the endpoint placeholder first", async () => {
    const response = await request(stack.app).get('/report');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const $ = load(response.text);
    expect($('h1').text()).toBe('Report Center');
    expect($('form[data-report-form]').attr('method')).toBe('post');
    expect($('form[data-report-form]').attr('action')).toBe('/report');
    expect(
      $('input[name=category]')
        .map((_, el) => `${$(el).attr('value')}=${$(el).next('span').text()}`)
        .get(),
    ).toEqual([
      'bug=Bug / Error',
      'api-down=API Mati / Down',
      'wrong-data=Data Salah',
      'slow=Performa Lambat',
      'feature=Request Fitur',
      'other=Lainnya',
    ]);
    expect(
      $('#endpoint option')
        .map((_, el) => `${$(el).attr('value')}=${$(el).text()}`)
        .get(),
    ).toEqual([
      '=Pilih endpoint…',
      '/catalog/home=GET /catalog/home',
      '/catalog/search=GET /catalog/search',
      '/catalog/genres=GET /catalog/genres',
      '/catalog/ongoing-series=GET /catalog/ongoing-series',
      '/catalog/popular-series=GET /catalog/popular-series',
      '/catalog/new-movie=GET /catalog/new-movie',
      'other=Lainnya / Tidak spesifik',
    ]);
    expect(
      $('input[name=severity]')
        .map((_, el) => `${$(el).attr('value')}=${$(el).next('span').text()}`)
        .get(),
    ).toEqual(['low=Rendah', 'medium=Sedang', 'high=Tinggi', 'critical=Kritis']);
    expect($('#title-counter').text()).toBe('0/100');
    expect($('#description-counter').text()).toBe('0/1000');
    expect($('label[for=title]').text()).toBe('Judul singkat');
    expect($('a[href="/"]').filter((_, el) => $(el).text().includes('Kembali ke beranda')).length).toBe(1);
    expect($('input:checked, option[selected]').length).toBe(0);
  });

  it("is pre-filled by ?endpoint=&category=, as an API error's reportUrl opens it", async () => {
    const $ = load((await request(stack.app).get('/report?endpoint=%2Fcatalog%2Fongoing-series&category=api-down')).text);
    expect($('#endpoint option[selected]').attr('value')).toBe('/catalog/ongoing-series');
    expect($('input[name=category]:checked').attr('value')).toBe('api-down');
    expect($('input[name=severity]:checked').length).toBe(0);
  });

  it('ignores pre-fill values that are not choices', async () => {
    const $ = load((await request(stack.app).get('/report?endpoint=%2Fetc%2Fpasswd&category=urgent')).text);
    expect($('option[selected], input:checked').length).toBe(0);
  });

  it('stores a valid submission and redirects (303) to the confirmation with its id', async () => {
    const before = storedReports().length;
    const response = await request(stack.app).post('/report').type('form').send(valid);
    expect(response.status).toBe(303);
    const stored = storedReports();
    expect(stored).toHaveLength(before + 1);
    const id = stored.at(-1)?.id as string;
    expect(response.headers['location']).toBe(`/report/sent/${id}`);
    expect(stored.at(-1)).toMatchObject(valid);

    const confirmation = await request(stack.app).get(`/report/sent/${id}`);
    expect(confirmation.status).toBe(200);
    const $ = load(confirmation.text);
    expect($('h1').text()).toBe('Laporan Terkirim!');
    expect($('.lead').text()).toBe('Terima kasih. Laporan Anda sudah kami terima dan akan ditinjau.');
    expect($('[data-report-id]').text()).toBe(id);
    expect($('a[href="/"]').filter((_, el) => $(el).text() === 'Kembali ke beranda').length).toBe(1);
  });

  it("refuses a post another site's page sends (Origin or Sec-Fetch-Site), storing nothing; takes one from its own page", async () => {
    const before = storedReports().length;
    const post = (headers: Record<string, string>) =>
      request(stack.app).post('/report').set('Host', 'api.test').set(headers).type('form').send(valid);
    const crossSite: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { Origin: 'http://api.test', 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
    ];
    for (const headers of crossSite) {
      const refused = await post({ ...headers, Accept: 'application/json' });
      expect(refused.status, JSON.stringify(headers)).toBe(400);
      expect(refused.body.error).toEqual({
        code: 'INVALID_PARAMETER',
        message: 'The request is malformed. See details.',
        details: [
          {
            field: 'Origin',
            rule: "this service's own pages",
            message: "The report form can only be sent from the Report Center's own page",
          },
        ],
      });
    }
    expect(storedReports()).toHaveLength(before);
    // Chromium's own post from our page (its no-referrer policy hides the Origin), and an Origin alone.
    const own: Record<string, string>[] = [{ Origin: 'null', 'Sec-Fetch-Site': 'same-origin' }, { Origin: 'http://api.test' }];
    for (const headers of own) {
      expect((await post(headers)).status, JSON.stringify(headers)).toBe(303);
    }
    expect(storedReports()).toHaveLength(before + 2);
  });

  it('returns the form with a message beside each wrong field and everything typed kept', async () => {
    const before = storedReports().length;
    const typed = {
      category: 'wrong-data',
      endpoint: '/catalog/genres',
      title: 't'.repeat(101),
      description: 'Baris satu\r\nbaris dua',
      severity: '',
    };
    const response = await request(stack.app).post('/report').type('form').send(typed);
    expect(response.status).toBe(400);
    expect(storedReports()).toHaveLength(before);
    const $ = load(response.text);
    expect($('#title-error').text()).toBe('Maksimal 100 karakter (sekarang 101).');
    expect($('#title-error').attr('hidden')).toBeUndefined();
    expect($('#title').attr('aria-invalid')).toBe('true');
    expect($('#severity-error').text()).toBe('Pilih tingkat keparahan.');
    expect($('#category-error').attr('hidden')).toBe('hidden');
    expect($('#description-error').text()).toBe('');
    expect($('#title').attr('value')).toBe(typed.title);
    expect($('#title-counter').text()).toBe('101/100');
    expect($('#title-counter').hasClass('counter--over')).toBe(true);
    expect($('#description').text()).toBe('Baris satu\nbaris dua');
    expect($('#description-counter').text()).toBe('20/1000');
    expect($('input[name=category]:checked').attr('value')).toBe('wrong-data');
    expect($('#endpoint option[selected]').attr('value')).toBe('/catalog/genres');
    expect(
      $('[data-error-summary] a')
        .map((_, el) => `${$(el).attr('href')} ${$(el).text()}`)
        .get(),
    ).toEqual(['#title Judul singkat: Maksimal 100 karakter (sekarang 101).', '#severity-low Tingkat keparahan: Pilih tingkat keparahan.']);
  });

  it('shows typed markup as text, never as markup', async () => {
    const response = await request(stack.app)
      .post('/report')
      .type('form')
      .send({ ...valid, title: '<script>alert(1)</script>', description: '"><img src=x onerror=alert(2)>', severity: '' });
    expect(response.status).toBe(400);
    expect(response.text).not.toContain('<script>alert(1)');
    expect(response.text).not.toContain('<img src=x');
    const $ = load(response.text);
    expect($('#title').attr('value')).toBe('<script>alert(1)</script>');
    expect($('#description').text()).toBe('"><img src=x onerror=alert(2)>');
  });

  it('refuses a filled honeypot with a note above the form, and sends the trap back empty', async () => {
    const response = await request(stack.app)
      .post('/report')
      .type('form')
      .send({ ...valid, website: 'spam' });
    expect(response.status).toBe(400);
    const $ = load(response.text);
    expect($('.alert[role=alert]').first().text().trim()).toBe(
      'Laporan belum terkirim: isian tersembunyi anti-spam ikut terisi (mungkin oleh isi-otomatis browser). Periksa isian lalu kirim lagi.',
    );
    expect($('#website').attr('value')).toBe('');
    expect($('#title').attr('value')).toBe(valid.title);
  });

  it('refuses a field given twice', async () => {
    const response = await request(stack.app)
      .post('/report')
      .type('form')
      .send('category=bug&category=slow&endpoint=other&title=a&description=b&severity=low');
    expect(response.status).toBe(400);
    expect(load(response.text)('#category-error').text()).toBe('Isian ini tidak valid.');
  });

  it('refuses a form with more fields than a report could have', async () => {
    const fields = Array.from({ length: 21 }, (_, n) => `extra${n}=x`).join('&');
    const response = await request(stack.app).post('/report').type('form').send(fields);
    expect(response.status).toBe(400);
    expect(ErrorEnvelope.parse(response.body).error.details).toEqual([
      { field: 'body', rule: 'at most 20 fields', message: 'The form has more fields than a report' },
    ]);
  });

  it('answers a body over 32 KB with 413 and an error page', async () => {
    const response = await request(stack.app)
      .post('/report')
      .set('Accept', 'text/html')
      .type('form')
      .send({ ...valid, description: 'd'.repeat(33 * 1024) });
    expect(response.status).toBe(413);
    const $ = load(response.text);
    expect($('h1').text()).toBe('Maaf, terjadi kesalahan');
    expect($('.lead').text()).toBe('HTTP 413 · PAYLOAD_TOO_LARGE');
  });

  it('answers 404 for a confirmation id that is not a report id', async () => {
    expect((await request(stack.app).get('/report/sent/not-an-id')).status).toBe(404);
  });
});

describe('the report quota (REPORT_RATE_LIMIT_MAX)', () => {
  let limited: TestStack;
  beforeAll(async () => {
    limited = await startTestStack({ env: { REPORT_RATE_LIMIT_MAX: '2' } });
  });
  afterAll(() => limited.close());

  it('is shared by the form and the JSON route, and answers the third with 429', async () => {
    expect((await request(limited.app).post('/report').type('form').send(valid)).status).toBe(303);
    expect((await request(limited.app).post('/api/reports').send(valid)).status).toBe(201);

    const refused = await request(limited.app).post('/api/reports').send(valid);
    expect(refused.status).toBe(429);
    expect(ErrorEnvelope.parse(refused.body).error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);

    const form = await request(limited.app)
      .post('/report')
      .type('form')
      .send({ ...valid, title: 'Masih ingin melapor' });
    expect(form.status).toBe(429);
    expect(Number(form.headers['retry-after'])).toBeGreaterThan(3500);
    const $ = load(form.text);
    expect($('.alert[role=alert]').text().trim()).toBe(
      'Anda sudah mengirim 2 laporan dalam jendela waktu ini. Coba kirim lagi dalam 60 menit. Isian Anda tidak kami baca: tombol Kembali pada peramban membuka lagi formulir yang berisi isian itu.',
    );
    // Refused before its body was read: nothing of what was sent comes back.
    expect($('#title').attr('value') ?? '').toBe('');
    expect(form.text).not.toContain('Masih ingin melapor');
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../src/contract/schemas.js';
import type { StoredReport } from '../../src/reports/schema.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

const TOKEN = 'operator-token-0123456789abcdef';

const stored = (n: number, change: Partial<StoredReport>): StoredReport => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  createdAt: '2026-11-20T10:00:00.000Z',
  category: 'bug',
  endpoint: '/catalog/home',
  title: `Laporan ${n}`,
  description: 'Isi',
  severity: 'low',
  userAgent: null,
  ipHash: 'a'.repeat(64),
  ...change,
});

const REPORTS = [
  stored(1, { createdAt: '2026-11-19T23:59:59.000Z', category: 'slow' }),
  stored(2, { createdAt: '2026-11-20T00:00:00.000Z', severity: 'critical' }),
  stored(3, { createdAt: '2026-11-21T12:00:00.000Z', category: 'slow', severity: 'critical' }),
];

describe('GET /admin/reports without ADMIN_TOKEN', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(() => stack.close());

  it('does not exist: 404 NOT_FOUND, with or without a token', async () => {
    for (const auth of [undefined, `Bearer ${TOKEN}`]) {
      const call = request(stack.app).get('/admin/reports');
      const response = await (auth ? call.set('Authorization', auth) : call);
      expect(response.status).toBe(404);
      expect(ErrorEnvelope.parse(response.body).error.code).toBe('NOT_FOUND');
    }
  });
});

describe('GET /admin/reports with ADMIN_TOKEN', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: { ADMIN_TOKEN: TOKEN } });
    writeFileSync(join(stack.config.DATA_DIR, 'reports.jsonl'), `${REPORTS.map((r) => JSON.stringify(r)).join('\n')}\n{"torn`);
  });
  afterAll(() => stack.close());

  it.each([
    ['no Authorization header', undefined],
    ['a wrong token', 'Bearer operator-token-0123456789abcdeX'],
    ['a prefix of the token', `Bearer ${TOKEN.slice(0, -1)}`],
    ['the token without "Bearer"', TOKEN],
    ['Basic auth', `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}`],
  ])('answers 401 UNAUTHORIZED to %s', async (_case, auth) => {
    const call = request(stack.app).get('/admin/reports');
    const response = await (auth ? call.set('Authorization', auth) : call);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="admin"');
    expect(ErrorEnvelope.parse(response.body).error.code).toBe('UNAUTHORIZED');
  });

  it('lists every readable report newest first, and counts the skipped torn line', async () => {
    const response = await request(stack.app).get('/admin/reports').set('Authorization', `Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toEqual({
      status: 'success',
      data: { reports: [REPORTS[2], REPORTS[1], REPORTS[0]] },
      meta: { count: 3, skippedLines: 1 },
    });
  });

  it.each([
    ['category=slow', [3, 1]],
    ['severity=critical', [3, 2]],
    ['category=slow&severity=critical', [3]],
    ['from=2026-11-20', [3, 2]],
    ['to=2026-11-20', [2, 1]],
    ['from=2026-11-20&to=2026-11-20', [2]],
  ])('filters with %s', async (query, numbers) => {
    const response = await request(stack.app).get(`/admin/reports?${query}`).set('Authorization', `bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.body.data.reports.map((report: StoredReport) => report.title)).toEqual(numbers.map((n) => `Laporan ${n}`));
  });

  it('refuses a bad filter with 400 INVALID_PARAMETER naming it', async () => {
    const response = await request(stack.app)
      .get('/admin/reports?severity=extreme&from=21-11-2026')
      .set('Authorization', `Bearer ${TOKEN}`);
    expect(response.status).toBe(400);
    expect(ErrorEnvelope.parse(response.body).error.details.map(({ field, message }) => [field, message])).toEqual([
      ['severity', 'severity must be one of: low, medium, high, critical'],
      ['from', 'from must be a date written YYYY-MM-DD'],
    ]);
  });
});

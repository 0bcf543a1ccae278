import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runReportsCli, USAGE } from '../../../src/reports/cli.js';
import { createFileReports } from '../../../src/stores/reports/file.js';
import type { StoredReport } from '../../../src/reports/schema.js';

const reports: StoredReport[] = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    createdAt: '2026-11-20T08:15:00.000Z',
    category: 'bug',
    endpoint: '/catalog/home',
    title: 'Slider kosong',
    description: 'Slider di /catalog/home kosong.\nSejak pagi.',
    severity: 'high',
    userAgent: 'curl/8.5',
    ipHash: 'b'.repeat(64),
  },
  {
    id: '22222222-2222-4222-8222-222222222222',
    createdAt: '2026-11-21T09:30:00.000Z',
    category: 'slow',
    endpoint: 'other',
    title: 'Lambat \u001b[31mmerah\u001b[0m',
    description: 'Sangat lambat \u009b2J',
    severity: 'low',
    userAgent: null,
    ipHash: 'c'.repeat(64),
  },
];

function dataDirWith(lines: string) {
  const dir = mkdtempSync(join(tmpdir(), 'reports-cli-'));
  writeFileSync(join(dir, 'reports.jsonl'), lines);
  return dir;
}

async function run(argv: string[], dataDir = dataDirWith(reports.map((r) => `${JSON.stringify(r)}\n`).join(''))) {
  const out: string[] = [];
  const err: string[] = [];
  // Skipped lines are told on stderr, as the CLI's logger tells them.
  const log = (fields: object, message: string) => err.push(`${message} ${JSON.stringify(fields)}`);
  const store = createFileReports(dataDir, { info: log, warn: log, error: log });
  const code = await runReportsCli(argv, store, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run reports', () => {
  it('lists newest first as a table, with control characters escaped', async () => {
    const { code, out, err } = await run([]);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out.split('\n')).toEqual([
      'CREATED (UTC)     ID                                    CATEGORY  SEVERITY  ENDPOINT       TITLE',
      '2026-11-21 09:30  22222222-2222-4222-8222-222222222222  slow      low       other          Lambat \\u001b[31mmerah\\u001b[0m',
      '2026-11-20 08:15  11111111-1111-4111-8111-111111111111  bug       high      /catalog/home  Slider kosong',
    ]);
  });

  it.each([
    [['list', '--category', 'bug'], ['11111111-1111-4111-8111-111111111111']],
    [['--severity', 'low'], ['22222222-2222-4222-8222-222222222222']],
    [['--from', '2026-11-21'], ['22222222-2222-4222-8222-222222222222']],
    [['--to', '2026-11-20'], ['11111111-1111-4111-8111-111111111111']],
    [
      ['--from', '2026-11-20', '--to', '2026-11-21'],
      ['22222222-2222-4222-8222-222222222222', '11111111-1111-4111-8111-111111111111'],
    ],
  ])('filters with %j', async (argv, ids) => {
    const { code, out } = await run([...argv, '--json']);
    expect(code).toBe(0);
    expect((JSON.parse(out) as StoredReport[]).map((r) => r.id)).toEqual(ids);
  });

  it('says so when nothing matches', async () => {
    expect((await run(['--category', 'feature'])).out).toBe('No reports match.');
  });

  it('shows one report in full, and as JSON with C1 controls escaped', async () => {
    const shown = await run(['show', '11111111-1111-4111-8111-111111111111']);
    expect(shown.code).toBe(0);
    expect(shown.out).toBe(
      [
        'id         11111111-1111-4111-8111-111111111111',
        'createdAt  2026-11-20T08:15:00.000Z',
        'category   bug',
        'severity   high',
        'endpoint   /catalog/home',
        'title      Slider kosong',
        'userAgent  curl/8.5',
        `ipHash     ${'b'.repeat(64)}`,
        '',
        'Slider di /catalog/home kosong.\nSejak pagi.',
      ].join('\n'),
    );
    const asJson = await run(['show', '22222222-2222-4222-8222-222222222222', '--json']);
    expect(asJson.out).toContain('"description": "Sangat lambat \\u009b2J"');
    expect(JSON.parse(asJson.out)).toEqual(reports[1]);
  });

  it('escapes bidi controls, which could reorder a row on the terminal, in the table, the details and JSON', async () => {
    const bidi: StoredReport = {
      ...(reports[0] as StoredReport),
      title: 'a\u202eb\u2066c\u2069d\u202ae',
      description: 'x\u202dy\u2067z\u200f',
    };
    const dir = dataDirWith(`${JSON.stringify(bidi)}\n`);
    expect((await run([], dir)).out.split('\n')[1]).toBe(
      '2026-11-20 08:15  11111111-1111-4111-8111-111111111111  bug       high      /catalog/home  a\\u202eb\\u2066c\\u2069d\\u202ae',
    );
    expect((await run(['show', bidi.id], dir)).out).toContain('title      a\\u202eb\\u2066c\\u2069d\\u202ae\n');
    expect((await run(['show', bidi.id], dir)).out.endsWith('\nx\\u202dy\\u2067z\\u200f')).toBe(true);
    const asJson = await run(['show', bidi.id, '--json'], dir);
    expect(asJson.out).toContain('"description": "x\\u202dy\\u2067z\\u200f"');
    expect(JSON.parse(asJson.out)).toEqual(bidi);
  });

  it('fails with exit code 1 for an unknown id', async () => {
    expect(await run(['show', 'nope'])).toEqual({ code: 1, out: '', err: 'No report with id nope' });
  });

  it.each([
    [['--category', 'urgent'], 'category must be one of: bug, api-down, wrong-data, slow, feature, other'],
    [['--from', '2026-02-30'], 'from must be a date written YYYY-MM-DD'],
    [['--to', 'yesterday'], 'to must be a date written YYYY-MM-DD'],
  ])('refuses a bad filter %j with exit code 2', async (argv, message) => {
    expect(await run(argv)).toEqual({ code: 2, out: '', err: message });
  });

  it.each([[['delete']], [['show']], [['list', 'extra']], [['--bogus']]])('prints the usage for %j with exit code 2', async (argv) => {
    const { code, err } = await run(argv);
    expect(code).toBe(2);
    expect(err).toContain(USAGE);
  });

  it('skips a torn line and says so on stderr', async () => {
    const dir = dataDirWith(`${JSON.stringify(reports[0])}\n{"id":"torn`);
    const { code, out, err } = await run(['--json'], dir);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual([reports[0]]);
    expect(err).toBe(
      `skipping an unreadable report line (torn by a crash?) ${JSON.stringify({ file: join(dir, 'reports.jsonl'), line: 2 })}`,
    );
  });
});

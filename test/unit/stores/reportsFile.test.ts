import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredReport } from '../../../src/reports/schema.js';
import { createFileReports } from '../../../src/stores/reports/file.js';
import type { ReportsLog } from '../../../src/reports/store.js';

function recordingLog() {
  const lines: { level: string; fields: object; message: string }[] = [];
  const log: ReportsLog = {
    info: (fields, message) => lines.push({ level: 'info', fields, message }),
    warn: (fields, message) => lines.push({ level: 'warn', fields, message }),
    error: (fields, message) => lines.push({ level: 'error', fields, message }),
  };
  return { log, lines };
}

const report = (n: number): StoredReport => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  createdAt: `2026-11-21T10:00:${String(n % 60).padStart(2, '0')}.000Z`,
  category: 'bug',
  endpoint: '/catalog/home',
  title: `Report ${n}`,
  description: `Line one\nline two of report ${n}`,
  severity: 'low',
  userAgent: 'test',
  ipHash: 'a'.repeat(64),
});

const tempDir = () => join(mkdtempSync(join(tmpdir(), 'report-store-')), 'nested');

describe('the reports file (the embedded default)', () => {
  it('creates the folder and file, and a record is in the file once append resolves', async () => {
    const dir = tempDir();
    const file = join(dir, 'reports.jsonl');
    const store = createFileReports(dir, recordingLog().log);
    await store.add(report(1));
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(report(1))}\n`);
  });

  it('writes 500 concurrent appends as 500 whole lines', async () => {
    const dir = tempDir();
    const file = join(dir, 'reports.jsonl');
    const store = createFileReports(dir, recordingLog().log);
    await Promise.all(Array.from({ length: 500 }, (_, n) => store.add(report(n))));
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(500);
    const parsed = lines.map((line) => JSON.parse(line) as StoredReport);
    expect(new Set(parsed.map((entry) => entry.id)).size).toBe(500);
    expect(parsed.map((entry) => entry.title).sort()).toEqual(Array.from({ length: 500 }, (_, n) => `Report ${n}`).sort());
    expect(await store.list()).toEqual({ reports: parsed, skippedLines: 0 });
  });

  it('skips a torn last line with a warning naming the line', async () => {
    const dir = tempDir();
    const file = join(dir, 'reports.jsonl');
    const { log, lines } = recordingLog();
    const store = createFileReports(dir, log);
    await store.add(report(1));
    await store.add(report(2));
    appendFileSync(file, JSON.stringify(report(3)).slice(0, 40));

    expect(await store.list()).toEqual({ reports: [report(1), report(2)], skippedLines: 1 });
    expect(lines).toEqual([{ level: 'warn', fields: { file, line: 3 }, message: 'skipping an unreadable report line (torn by a crash?)' }]);
  });

  it('starts a new line after a torn one, so the next report stays whole', async () => {
    const dir = tempDir();
    const file = join(dir, 'reports.jsonl');
    await createFileReports(dir, recordingLog().log).add(report(1));
    appendFileSync(file, '{"id":"torn');
    // A fresh store, as after a restart: it does not know the file's tail yet.
    const store = createFileReports(dir, recordingLog().log);
    await store.add(report(2));

    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(report(1))}\n{"id":"torn\n${JSON.stringify(report(2))}\n`);
    expect(await store.list()).toEqual({ reports: [report(1), report(2)], skippedLines: 1 });
  });

  it('skips a line that is JSON but not a report', async () => {
    const dir = tempDir();
    const file = join(dir, 'reports.jsonl');
    const store = createFileReports(dir, recordingLog().log);
    await store.add(report(1));
    appendFileSync(file, '{"id":"x"}\n');
    expect(await store.list()).toEqual({ reports: [report(1)], skippedLines: 1 });
  });

  it('reads a missing file as no reports', async () => {
    expect(await createFileReports(tempDir(), recordingLog().log).list()).toEqual({ reports: [], skippedLines: 0 });
  });

  it('rejects the waiting appends and logs when the file cannot be written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-store-'));
    // A file where the folder should be makes mkdir fail.
    writeFileSync(join(dir, 'blocked'), '');
    const { log, lines } = recordingLog();
    const store = createFileReports(join(dir, 'blocked'), log);
    await expect(store.add(report(1))).rejects.toThrow(/EEXIST|ENOTDIR/);
    expect(lines.map((line) => [line.level, line.message])).toEqual([['error', 'could not append reports']]);
  });

  it('knows every id of its file after a restart, and no other, without reading the file again', async () => {
    const dir = tempDir();
    const file = join(dir, 'reports.jsonl');
    const before = createFileReports(dir, recordingLog().log);
    await Promise.all(Array.from({ length: 300 }, (_, n) => before.add(report(n))));
    const store = createFileReports(dir, recordingLog().log);
    expect(await store.has(report(299).id)).toBe(true);
    // The file is gone, yet the index answers: a confirmation reads no file.
    rmSync(file);
    for (let n = 0; n < 300; n++) expect(await store.has(report(n).id)).toBe(true);
    expect(await store.has(report(300).id)).toBe(false);
    expect(await store.has('00000000-0000-0000-0000-000000000000')).toBe(false);
    await store.add(report(300));
    expect(await store.has(report(300).id)).toBe(true);
  });

  it('keeps a salt per folder, and one adopted from elsewhere across a restart', async () => {
    const dir = tempDir();
    const salt = await createFileReports(dir, recordingLog().log).ipHashSalt();
    expect(salt).toHaveLength(32);
    expect(await createFileReports(dir, recordingLog().log).ipHashSalt()).toEqual(salt);
    const shared = Buffer.alloc(32, 7);
    await createFileReports(dir, recordingLog().log).adoptIpHashSalt(shared);
    expect(await createFileReports(dir, recordingLog().log).ipHashSalt()).toEqual(shared);
    expect(statSync(join(dir, 'ip-hash.salt')).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['empty', ''],
    ['short', 'ab12\n'],
  ])('moves an %s salt file aside, logged once, and makes a new salt', async (_kind, text) => {
    const dir = tempDir();
    mkdirSync(dir);
    writeFileSync(join(dir, 'ip-hash.salt'), text);
    const { log, lines } = recordingLog();
    const salt = await createFileReports(dir, log).ipHashSalt();
    expect(readFileSync(join(dir, 'ip-hash.salt'), 'utf8')).toBe(`${salt.toString('hex')}\n`);
    const aside = readdirSync(dir).filter((name) => name.startsWith('ip-hash.salt.damaged-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(text);
    expect(lines.filter((line) => line.message === 'damaged file moved aside; starting afresh').map((line) => line.fields)).toEqual([
      { file: join(dir, 'ip-hash.salt'), movedTo: join(dir, aside[0]!), cause: `it holds ${text.length} bytes, not 32 bytes as hex` },
    ]);
    // Nothing but the salt and what was moved aside is left in the folder.
    expect(readdirSync(dir).sort()).toEqual(['ip-hash.salt', aside[0]!]);
  });

  it('gives two stores that make the salt at once the same one', async () => {
    const dir = tempDir();
    const salts = await Promise.all(Array.from({ length: 8 }, () => createFileReports(dir, recordingLog().log).ipHashSalt()));
    expect(new Set(salts.map((salt) => salt.toString('hex'))).size).toBe(1);
    expect(readdirSync(dir)).toEqual(['ip-hash.salt']);
  });
});

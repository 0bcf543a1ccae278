import { closeSync, mkdtempSync, openSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { CatalogAnswer } from '../../../src/catalog/answer.js';
import { createLogger } from '../../../src/config/logger.js';
import { encodeAnswer } from '../../../src/stores/answers/storedAnswer.js';
import { openAnswerFile, type AnswerFileOptions } from '../../../src/stores/answers/answerFile.js';

const HOUR_MS = 3_600_000;
const PAGE_BYTES = 4096;
const logger = createLogger('silent');

/** A logger whose lines are kept, parsed. */
const recording = (() => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
})();

function answer(fetchedAt: number, text: string): CatalogAnswer {
  return {
    body: Buffer.from(JSON.stringify({ status: 'success', data: { text }, meta: { fetchedAt: new Date(fetchedAt).toISOString() } })),
    etag: `W/"${text.length}-${fetchedAt}"`,
    fetchedAt,
    ttlSeconds: 600,
  };
}

function setUp(options: Partial<AnswerFileOptions> = {}) {
  const path = join(mkdtempSync(join(tmpdir(), 'answer-file-')), 'answers.sqlite');
  const clock = { now: 1_700_000_000_000 };
  const open = () =>
    openAnswerFile({
      path,
      maxBytes: 1024 * 1024,
      keepUntil: (kept) => kept.fetchedAt + 24 * HOUR_MS,
      now: () => clock.now,
      logger,
      ...options,
    });
  return { path, clock, open };
}

describe('the kept answers file', () => {
  it('gives back what it kept, byte for byte, after a reopen too', () => {
    const { clock, open } = setUp();
    const file = open();
    const kept = answer(clock.now, 'één "quoted" line\nand a second');
    file.write('/catalog/home?page=1#parser-v1', kept);
    expect(file.read('/catalog/home?page=1#parser-v1')).toEqual(kept);
    expect(file.read('/catalog/home?page=2#parser-v1')).toBeUndefined();
    file.close();
    const reopened = open();
    expect(reopened.read('/catalog/home?page=1#parser-v1')).toEqual(kept);
    expect(reopened.size()).toEqual({ entries: 1, bytes: file.size().bytes });
    reopened.close();
  });

  it('replaces an answer in place and counts it once', () => {
    const { clock, open } = setUp();
    const file = open();
    file.write('k', answer(clock.now, 'first'));
    expect(file.size()).toEqual({ entries: 1, bytes: encodeAnswer(answer(clock.now, 'first')).length + 1 });
    clock.now += 1000;
    const second = answer(clock.now, 'second, longer');
    file.write('k', second);
    expect(file.read('k')).toEqual(second);
    expect(file.size()).toEqual({ entries: 1, bytes: encodeAnswer(second).length + 1 });
    file.close();
  });

  it('never gives back an answer past its keeping time, and deletes it on a later write', () => {
    const { clock, open, path } = setUp();
    const file = open();
    file.write('old', answer(clock.now, 'old'));
    clock.now += 24 * HOUR_MS - 1;
    expect(file.read('old')?.fetchedAt).toBe(clock.now - 24 * HOUR_MS + 1);
    clock.now += 1;
    expect(file.read('old')).toBeUndefined();
    file.write('new', answer(clock.now, 'new'));
    expect(file.size().entries).toBe(1);
    file.close();
    expect(readdirSync(join(path, '..')).filter((name) => name.startsWith('answers.sqlite'))).toContain('answers.sqlite');
  });

  it('does not keep an answer whose keeping time is already over', () => {
    const { clock, open } = setUp({ keepUntil: (kept) => kept.fetchedAt });
    const file = open();
    file.write('k', answer(clock.now, 'x'));
    expect(file.read('k')).toBeUndefined();
    expect(file.size()).toEqual({ entries: 0, bytes: 0 });
    file.close();
  });

  it('drops an answer on delete', () => {
    const { clock, open } = setUp();
    const file = open();
    file.write('a', answer(clock.now, 'a'));
    file.write('b', answer(clock.now, 'b'));
    file.delete('a');
    expect(file.read('a')).toBeUndefined();
    expect(file.read('b')?.etag).toBe(answer(clock.now, 'b').etag);
    expect(file.size().entries).toBe(1);
    file.close();
  });

  it('holds its size bound, dropping the least recently used first, and the file stays near the bound', () => {
    const maxBytes = 256 * 1024;
    const { clock, open, path } = setUp({ maxBytes });
    const file = open();
    const text = 'x'.repeat(10_000);
    for (let i = 0; i < 100; i++) {
      clock.now += TOUCH_AFTER_MS;
      file.write(`k${i}`, answer(clock.now, `${i} ${text}`));
      // k0 is read after every write, so it stays the most recently used.
      expect(file.read('k0'), `after writing k${i}`).toBeDefined();
    }
    const { entries, bytes } = file.size();
    expect(bytes).toBeLessThanOrEqual(maxBytes);
    expect(entries).toBeGreaterThan(15);
    expect(entries).toBeLessThan(30);
    const kept = Array.from({ length: 100 }, (_, i) => i).filter((i) => file.read(`k${i}`) !== undefined);
    // k0, and then the newest ones, without a gap.
    expect(kept[0]).toBe(0);
    expect(kept.slice(1)).toEqual(Array.from({ length: kept.length - 1 }, (_, i) => 100 - kept.length + 1 + i));
    file.close();
    const onDisk = readdirSync(join(path, '..')).reduce((sum, name) => sum + statSync(join(path, '..', name)).size, 0);
    expect(onDisk).toBeLessThan(2 * maxBytes);
  });

  it('moves an unreadable file aside and starts an empty one', () => {
    const { clock, open, path } = setUp();
    writeFileSync(path, 'this is not a database, but some bytes long enough to have a header '.repeat(20));
    const file = open();
    expect(file.size()).toEqual({ entries: 0, bytes: 0 });
    file.write('k', answer(clock.now, 'x'));
    expect(file.read('k')?.fetchedAt).toBe(clock.now);
    file.close();
    expect(readdirSync(join(path, '..')).some((name) => name.startsWith('answers.sqlite.damaged-'))).toBe(true);
  });

  it('moves a file damaged while open aside on the read that finds it, logs it once, and keeps answers in a new one', () => {
    const { clock, open, path } = setUp({ maxBytes: 64 * 1024 * 1024, logger: recording.logger });
    const file = open();
    // More than the connection's page cache holds, so that reads go to the file.
    const keys = Array.from({ length: 2000 }, (_, index) => `key-${index}`);
    for (const key of keys) file.write(key, answer(clock.now, key.repeat(300)));
    const other = new Database(path);
    other.pragma('wal_checkpoint(TRUNCATE)');
    other.close();
    const fd = openSync(path, 'r+');
    for (let page = 2; page * PAGE_BYTES < statSync(path).size; page += 2)
      writeSync(fd, Buffer.alloc(PAGE_BYTES, 0xa5), 0, PAGE_BYTES, page * PAGE_BYTES);
    closeSync(fd);

    recording.lines.length = 0;
    const read = keys.map((key) => file.read(key)?.fetchedAt);
    expect(read.some((fetchedAt) => fetchedAt === undefined)).toBe(true);
    const aside = readdirSync(join(path, '..')).filter((name) => /^answers\.sqlite\.damaged-\d+$/.test(name));
    expect(aside).toHaveLength(1);
    expect(
      recording.lines.filter((line) => line.msg === 'damaged file moved aside; starting afresh').map((line) => [line.file, line.movedTo]),
    ).toEqual([[path, join(path, '..', aside[0]!)]]);
    // The new file is empty and takes answers.
    expect(file.size()).toEqual({ entries: 0, bytes: 0 });
    file.write('after', answer(clock.now, 'after'));
    expect(file.read('after')?.fetchedAt).toBe(clock.now);
    file.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  });

  it('drops a row that is not a stored answer, and keeps the others', () => {
    const { clock, open, path } = setUp();
    const file = open();
    file.write('good', answer(clock.now, 'good'));
    file.write('bad', answer(clock.now, 'bad'));
    const other = new Database(path);
    other.prepare('UPDATE answers SET stored = ? WHERE key = ?').run(Buffer.from('no header line'), 'bad');
    other.close();
    expect(file.read('bad')).toBeUndefined();
    expect(file.size().entries).toBe(1);
    expect(file.read('good')).toEqual(answer(clock.now, 'good'));
    file.close();
  });
});

// Past the file's touch interval, so each read marks the answer used again.
const TOUCH_AFTER_MS = 60_000;

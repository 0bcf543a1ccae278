import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/config/logger.js';
import { datedFeed } from '../../../src/feeds/service.js';
import type { DraftEntry, DraftFeed } from '../../../src/feeds/model.js';
import { createFileFirstSeen } from '../../../src/stores/firstSeen/file.js';
import { RememberedEntries } from '../../../src/stores/firstSeen/memory.js';

const HOUR = 3_600_000;
const DAY_MS = 24 * HOUR;
const T0 = Date.parse('2026-11-25T10:00:00.000Z');

describe('RememberedEntries', () => {
  it('keeps the first time of an id and forgets what was not seen for keepMs', () => {
    const entries = new RememberedEntries({ keepMs: 10 * DAY_MS, maxEntries: 100 });
    expect(
      entries.claim(
        [
          { id: 'a', at: T0 },
          { id: 'b', at: T0 - 1000 },
        ],
        T0,
      ).added,
    ).toEqual([
      { id: 'a', at: T0 },
      { id: 'b', at: T0 - 1000 },
    ]);
    const later = entries.claim([{ id: 'a', at: T0 + 5 * DAY_MS }], T0 + 5 * DAY_MS);
    expect(later.times.get('a')).toBe(T0);
    expect(later.added).toEqual([]);
    // b was last seen at T0: forgotten once 10 days have passed; a, seen on day 5, is kept.
    entries.claim([{ id: 'c', at: T0 + 11 * DAY_MS }], T0 + 11 * DAY_MS);
    expect(entries.list().map(([id]) => id)).toEqual(['a', 'c']);
  });

  it('drops the ids seen longest ago past maxEntries', () => {
    const entries = new RememberedEntries({ keepMs: 10 * DAY_MS, maxEntries: 3 });
    entries.claim(
      ['a', 'b', 'c'].map((id) => ({ id, at: T0 })),
      T0,
    );
    entries.claim([{ id: 'a', at: T0 + 1 }], T0 + 1);
    entries.claim([{ id: 'd', at: T0 + 2 }], T0 + 2);
    expect(entries.list().map(([id]) => id)).toEqual(['c', 'a', 'd']);
  });
});

describe('the DATA_DIR first-seen file', () => {
  const bounds = { keepMs: 90 * DAY_MS, maxEntries: 1000 };

  it('gives the same times after a restart, skips a line torn by a crash, and stays one line per entry', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'first-seen-')), 'feed-first-seen.jsonl');
    const logger = createLogger('silent');
    const first = createFileFirstSeen(path, bounds, logger);
    const ids = Array.from({ length: 10 }, (_, index) => `https://site.example/e${index}/`);
    const times = await first.claim(
      ids.map((id, index) => ({ id, at: T0 - index * 1000 })),
      T0,
    );
    appendFileSync(path, '{"id":"https://site.example/torn/","firstSe');

    const second = createFileFirstSeen(path, bounds, logger);
    const again = await second.claim(
      ids.map((id) => ({ id, at: T0 + DAY_MS })),
      T0 + DAY_MS,
    );
    expect(again).toEqual(times);
    // Each new build that shows them again adds nothing; a new entry adds one line.
    for (let day = 2; day < 20; day++)
      await second.claim(
        [...ids, `https://site.example/new${day}/`].map((id) => ({ id, at: T0 + day * DAY_MS })),
        T0 + day * DAY_MS,
      );
    await second.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines.length).toBe(28);
    const third = createFileFirstSeen(path, bounds, logger);
    expect(
      await third.claim(
        ids.map((id) => ({ id, at: T0 + 30 * DAY_MS })),
        T0 + 30 * DAY_MS,
      ),
    ).toEqual(times);
  });
});

describe('datedFeed', () => {
  const entry = (id: string, releaseDate: string | null): DraftEntry => ({
    id,
    title: id,
    siteUrl: id,
    apiPath: `/catalog/episode/${id}`,
    image: null,
    summary: id,
    releaseDate,
  });
  const draft = (entries: DraftEntry[]): DraftFeed => ({
    title: 't',
    description: 'd',
    siteUrl: 'https://site.example/',
    image: null,
    entries,
  });

  it('dates a release date at midnight in Jakarta and a new entry by when it was first seen, leaving the others as they were', async () => {
    const store = new RememberedEntries({ keepMs: 90 * DAY_MS, maxEntries: 1000 });
    const firstSeen = { claim: async (candidates: { id: string; at: number }[], now: number) => store.claim(candidates, now).times };
    const first = await datedFeed(draft([entry('a', null), entry('b', '2026-11-20'), entry('c', null)]), 300, firstSeen, T0 + 123);
    expect(first.entries.map((e) => [e.id, e.date.toISOString()])).toEqual([
      ['a', '2026-11-25T10:00:00.000Z'],
      ['b', '2026-11-19T17:00:00.000Z'],
      ['c', '2026-11-25T09:59:59.000Z'],
    ]);
    const second = await datedFeed(
      draft([entry('n', null), entry('a', null), entry('a', null), entry('b', '2026-11-20'), entry('c', null)]),
      300,
      firstSeen,
      T0 + HOUR,
    );
    expect(second.entries.map((e) => [e.id, e.date.toISOString()])).toEqual([
      ['n', '2026-11-25T11:00:00.000Z'],
      ...first.entries.map((e) => [e.id, e.date.toISOString()]),
    ]);
    expect(second.updated.toISOString()).toBe('2026-11-25T11:00:00.000Z');
  });

  it('dates a feed without entries by when the feed itself was first seen, the same on every later build', async () => {
    const store = new RememberedEntries({ keepMs: 90 * DAY_MS, maxEntries: 1000 });
    const firstSeen = { claim: async (candidates: { id: string; at: number }[], now: number) => store.claim(candidates, now).times };
    const first = await datedFeed(draft([]), 300, firstSeen, T0 + 456);
    const later = await datedFeed(draft([]), 300, firstSeen, T0 + DAY_MS);
    expect(first.entries).toEqual([]);
    expect(first.updated.toISOString()).toBe('2026-11-25T10:00:00.000Z');
    expect(later.updated.toISOString()).toBe('2026-11-25T10:00:00.000Z');
  });
});

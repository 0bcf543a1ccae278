import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/config/logger.js';
import type { CatalogEntry, RemovedSeries } from '../../src/contract/catalogExport.js';
import type { CatalogChanges, CatalogStore } from '../../src/crawler/catalogStore.js';
import { createRedisCatalogStore } from '../../src/stores/catalog/redis.js';
import { createSqliteCatalogStore } from '../../src/stores/catalog/sqlite.js';
import { redisForSuite } from '../helpers/redisSuite.js';

// Both catalog stores answer the changes after a revision: what an instance that follows the
// crawl reads every two seconds instead of the whole catalog.

const logger = createLogger('silent');
// The store keeps an entry as its JSON bytes and reads none of its fields but the slug.
const entry = (slug: string, title = slug) => ({ slug, title, checkedAt: '2026-01-01T00:00:00.000Z' }) as unknown as CatalogEntry;
const gone = (slug: string): RemovedSeries => ({ slug, title: slug, removedAt: '2026-01-02T00:00:00.000Z' });

/** The changes as plain values: slug → title of each entry, and the slugs removed. */
const readable = (changes: CatalogChanges) => ({
  entries: Object.fromEntries(
    [...changes.entries].map(([slug, bytes]) => [slug, (JSON.parse(bytes.toString('utf8')) as { title: string }).title]),
  ),
  removed: [...changes.removed.keys()].sort(),
});

const redis = redisForSuite();
const stores: CatalogStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

const kinds: [string, () => Promise<CatalogStore>][] = [
  ['SQLite', async () => createSqliteCatalogStore(mkdtempSync(join(tmpdir(), 'catalog-store-')), logger)],
  [
    'Redis',
    async () => {
      const connection = await redis.connect();
      await connection.client.flushall();
      return createRedisCatalogStore(connection);
    },
  ],
];

describe.each(kinds)('the %s catalog store', (_kind, open) => {
  it('gives the changes after a revision, and everything for a revision below 0', async () => {
    const store = await open();
    stores.push(store);
    await store.put(entry('a'));
    await store.put(entry('b'));
    const first = await store.changesSince(-1);
    expect(readable(first)).toEqual({ entries: { a: 'a', b: 'b' }, removed: [] });

    await store.put(entry('c'));
    await store.put(entry('b', 'b renamed'));
    await store.remove(gone('a'));
    const next = await store.changesSince(first.revision);
    expect(next.revision).toBeGreaterThan(first.revision);
    expect(readable(next)).toEqual({ entries: { b: 'b renamed', c: 'c' }, removed: ['a'] });
    expect(readable(await store.changesSince(next.revision))).toEqual({ entries: {}, removed: [] });

    // A series back after it was removed is an entry again, and no longer removed.
    await store.put(entry('a', 'a is back'));
    expect(readable(await store.changesSince(next.revision))).toEqual({ entries: { a: 'a is back' }, removed: [] });
    expect(readable(await store.changesSince(-1))).toEqual({ entries: { a: 'a is back', b: 'b renamed', c: 'c' }, removed: [] });
    expect(await store.revision()).toBe((await store.changesSince(-1)).revision);
  });
});

describe('the SQLite catalog store', () => {
  it('reads a file written before rows carried their revision: its entries are all in the first read, and changes follow', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'catalog-store-'));
    const old = new Database(join(dataDir, 'catalog.sqlite'));
    old.exec(`
      CREATE TABLE entries (slug TEXT PRIMARY KEY, body BLOB NOT NULL) WITHOUT ROWID;
      CREATE TABLE removed (slug TEXT PRIMARY KEY, body TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    `);
    old.prepare('INSERT INTO entries (slug, body) VALUES (?, ?)').run('a', Buffer.from(JSON.stringify(entry('a'))));
    old.prepare('INSERT INTO removed (slug, body) VALUES (?, ?)').run('z', JSON.stringify(gone('z')));
    old.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('revision', '7');
    old.close();

    const store = createSqliteCatalogStore(dataDir, logger);
    stores.push(store);
    const first = await store.changesSince(-1);
    expect(first.revision).toBe(7);
    expect(readable(first)).toEqual({ entries: { a: 'a' }, removed: ['z'] });
    await store.put(entry('b'));
    expect(readable(await store.changesSince(first.revision))).toEqual({ entries: { b: 'b' }, removed: [] });
  });
});

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from '../../config/logger.js';
import { RemovedSeries, type CatalogEntry } from '../../contract/catalogExport.js';
import { CrawlProgress, NO_PROGRESS, type CatalogSnapshot, type CatalogStore } from '../../crawler/catalogStore.js';

// The local catalog in DATA_DIR/catalog.sqlite (better-sqlite3, the service's one embedded
// database): an entry per series as its JSON bytes, the series gone, the crawl's progress and a
// revision that every change moves on, in one transaction each, so that a crash leaves either
// the change or none of it. Entries are read back as Buffers, off the JavaScript heap.

const FILE = 'catalog.sqlite';

export function createSqliteCatalogStore(dataDir: string, logger: Logger): CatalogStore {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, FILE));
  // WAL: a reader (a snapshot) never waits for the crawler's writes; NORMAL sync is durable across
  // a crash of the process, and the crawl reads a page again if the machine loses the last writes.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS entries (slug TEXT PRIMARY KEY, body BLOB NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS removed (slug TEXT PRIMARY KEY, body TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  `);
  const getMeta = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const setMeta = db.prepare<[string, string]>('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const putEntry = db.prepare<[string, Buffer]>('INSERT INTO entries (slug, body) VALUES (?, ?) ON CONFLICT (slug) DO UPDATE SET body = excluded.body');
  const dropEntry = db.prepare<[string]>('DELETE FROM entries WHERE slug = ?');
  const putRemoved = db.prepare<[string, string]>('INSERT INTO removed (slug, body) VALUES (?, ?) ON CONFLICT (slug) DO UPDATE SET body = excluded.body');
  const dropRemoved = db.prepare<[string]>('DELETE FROM removed WHERE slug = ?');
  const allEntries = db.prepare<[], { slug: string; body: Buffer }>('SELECT slug, body FROM entries');
  const allRemoved = db.prepare<[], { body: string }>('SELECT body FROM removed');

  const revision = () => Number(getMeta.get('revision')?.value ?? '0');
  const bump = () => setMeta.run('revision', String(revision() + 1));

  function progress(): CrawlProgress {
    const text = getMeta.get('progress')?.value;
    if (text === undefined) return NO_PROGRESS;
    const parsed = CrawlProgress.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    logger.warn('unreadable crawl progress: the crawl starts afresh');
    return NO_PROGRESS;
  }

  const snapshot = db.transaction((): CatalogSnapshot => {
    const entries = new Map<string, Buffer>();
    for (const row of allEntries.iterate()) entries.set(row.slug, row.body);
    const removed = allRemoved.all().map((row) => RemovedSeries.parse(JSON.parse(row.body)));
    return { revision: revision(), entries, removed, progress: progress() };
  });
  const put = db.transaction((entry: CatalogEntry) => {
    putEntry.run(entry.slug, Buffer.from(JSON.stringify(entry)));
    dropRemoved.run(entry.slug);
    bump();
  });
  const remove = db.transaction((entry: RemovedSeries) => {
    dropEntry.run(entry.slug);
    putRemoved.run(entry.slug, JSON.stringify(entry));
    bump();
  });

  return {
    snapshot: async () => snapshot(),
    revision: async () => revision(),
    put: async (entry) => void put(entry),
    remove: async (entry) => void remove(entry),
    saveProgress: async (next) => void setMeta.run('progress', JSON.stringify(next)),
    close: async () => void db.close(),
  };
}

import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Logger } from '../../config/logger.js';
import type { CatalogEntry, RemovedSeries } from '../../contract/catalogExport.js';
import { CrawlProgress, NO_PROGRESS, type CatalogChanges, type CatalogStore } from '../../crawler/catalogStore.js';
import { openSqliteFile } from '../../files/sqliteFile.js';

// The local catalog in DATA_DIR/catalog.sqlite (better-sqlite3, the service's one embedded
// database): an entry per series as its JSON bytes, the series gone, the crawl's progress and a
// revision that every change moves on, in one transaction each, so that a crash leaves either
// the change or none of it. Each row carries the revision that wrote it, so that the changes after
// a revision are read by an index, not by reading everything. Entries are read back as Buffers,
// off the JavaScript heap. A damaged file is moved aside and the crawl starts afresh in a new one
// (src/files/sqliteFile.ts); a row that cannot be read is the catalog index's to skip.

const FILE = 'catalog.sqlite';

/** A file written before rows carried their revision gets the column; its rows count as revision 0. */
function addRevisionColumn(db: Database.Database, table: 'entries' | 'removed'): void {
  const columns = db.pragma(`table_info(${table})`) as { name: string }[];
  if (!columns.some((column) => column.name === 'revision')) db.exec(`ALTER TABLE ${table} ADD COLUMN revision INTEGER NOT NULL DEFAULT 0`);
  db.exec(`CREATE INDEX IF NOT EXISTS ${table}_by_revision ON ${table} (revision)`);
}

/**
 * The connection set up. `revisionFloor` is the highest revision handed out before: a new file made
 * in place of a damaged one goes on from there, so that an index that has read the old one sees
 * the new one's changes.
 */
function prepareCatalog(db: Database.Database, revisionFloor: number) {
  // WAL: a reader (a sync) never waits for the crawler's writes; NORMAL sync is durable across
  // a crash of the process, and the crawl reads a page again if the machine loses the last writes.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS entries (slug TEXT PRIMARY KEY, body BLOB NOT NULL, revision INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS removed (slug TEXT PRIMARY KEY, body TEXT NOT NULL, revision INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  `);
  addRevisionColumn(db, 'entries');
  addRevisionColumn(db, 'removed');
  const getMeta = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const setMeta = db.prepare<[string, string]>(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const putEntry = db.prepare<[string, Buffer, number]>(
    'INSERT INTO entries (slug, body, revision) VALUES (?, ?, ?) ON CONFLICT (slug) DO UPDATE SET body = excluded.body, revision = excluded.revision',
  );
  const dropEntry = db.prepare<[string]>('DELETE FROM entries WHERE slug = ?');
  const putRemoved = db.prepare<[string, string, number]>(
    'INSERT INTO removed (slug, body, revision) VALUES (?, ?, ?) ON CONFLICT (slug) DO UPDATE SET body = excluded.body, revision = excluded.revision',
  );
  const dropRemoved = db.prepare<[string]>('DELETE FROM removed WHERE slug = ?');
  const entriesAfter = db.prepare<[number], { slug: string; body: Buffer }>('SELECT slug, body FROM entries WHERE revision > ?');
  const removedAfter = db.prepare<[number], { slug: string; body: string }>('SELECT slug, body FROM removed WHERE revision > ?');

  const revision = () => Number(getMeta.get('revision')?.value ?? '0');
  if (revision() < revisionFloor) setMeta.run('revision', String(revisionFloor));
  /** Moves the revision on and returns the new one. */
  const bump = () => {
    const next = revision() + 1;
    setMeta.run('revision', String(next));
    return next;
  };

  return {
    revision,
    progressText: () => getMeta.get('progress')?.value,
    saveProgress: (text: string) => void setMeta.run('progress', text),
    changesSince: db.transaction((since: number): CatalogChanges => {
      const entries = new Map<string, Buffer>();
      for (const row of entriesAfter.iterate(since)) entries.set(row.slug, row.body);
      const removed = new Map(removedAfter.all(since).map((row) => [row.slug, row.body]));
      return { revision: revision(), entries, removed };
    }),
    put: db.transaction((entry: CatalogEntry) => {
      putEntry.run(entry.slug, Buffer.from(JSON.stringify(entry)), bump());
      dropRemoved.run(entry.slug);
    }),
    remove: db.transaction((entry: RemovedSeries) => {
      dropEntry.run(entry.slug);
      putRemoved.run(entry.slug, JSON.stringify(entry), bump());
    }),
  };
}

export function createSqliteCatalogStore(dataDir: string, logger: Logger): CatalogStore {
  let highestRevision = 0;
  const file = openSqliteFile({ path: join(dataDir, FILE), log: logger, prepare: (db) => prepareCatalog(db, highestRevision) });
  /** Runs `operation` on the file and notes the revision it reached. */
  const use = <T>(operation: (handle: ReturnType<typeof prepareCatalog>) => T): T =>
    file.use((handle) => {
      const result = operation(handle);
      highestRevision = Math.max(highestRevision, handle.revision());
      return result;
    });

  function progress(): CrawlProgress {
    const text = use((handle) => handle.progressText());
    if (text === undefined) return NO_PROGRESS;
    let parsed;
    try {
      parsed = CrawlProgress.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) return parsed.data;
    logger.warn('unreadable crawl progress: the crawl starts afresh');
    return NO_PROGRESS;
  }

  return {
    changesSince: async (since) => use((handle) => handle.changesSince(since)),
    revision: async () => use((handle) => handle.revision()),
    progress: async () => progress(),
    put: async (entry) => use((handle) => handle.put(entry)),
    remove: async (entry) => use((handle) => handle.remove(entry)),
    saveProgress: async (next) => use((handle) => handle.saveProgress(JSON.stringify(next))),
    close: async () => file.close(),
  };
}

import type Database from 'better-sqlite3';
import type { CatalogAnswer } from '../../catalog/answer.js';
import type { Logger } from '../../config/logger.js';
import { openSqliteFile } from '../../files/sqliteFile.js';
import { decodeAnswer, encodeAnswer } from './storedAnswer.js';

// The answers kept in DATA_DIR, one SQLite file: they outlive a restart and serve while the site
// fails, and they live on disk, not in the heap. A write is one transaction in WAL mode, so a
// process killed mid-write leaves the answer before it or after it, never a torn one; with
// synchronous=NORMAL a commit costs no fsync (the WAL is synced at checkpoints), which loses at most
// the last commits on a power cut, never a whole file. Reads and writes are synchronous (SQLite
// in the process): a point read of the largest answer takes a fraction of a millisecond.

export interface AnswerFileOptions {
  path: string;
  /** The bound on what is kept (stored bytes and keys); the least recently used go first past it. */
  maxBytes: number;
  /** Until when (ms since epoch) an answer is kept; it is never read back after. */
  keepUntil: (answer: CatalogAnswer) => number;
  now: () => number;
  logger: Logger;
}

export interface AnswerFile {
  /** The answer kept for `key`, unless its keeping time has passed; a read marks it used. */
  read(key: string): CatalogAnswer | undefined;
  /** Keeps `answer` for `key`, in place of the one kept before. */
  write(key: string, answer: CatalogAnswer): void;
  delete(key: string): void;
  /** How many answers are kept, and their bytes as the bound counts them. */
  size(): { entries: number; bytes: number };
  close(): void;
}

// The table's shape; a table of another shape is dropped and started afresh (it only holds copies).
const SCHEMA_VERSION = 1;
// A read marks its answer used at most this often, so that serving one answer many times does
// not write to the file each time; the eviction order is this coarse.
const TOUCH_EVERY_MS = 60_000;
// Expired answers are deleted at most this often, on a write.
const PRUNE_EVERY_MS = 60_000;
// Evicted per query while the file is over its bound.
const EVICT_BATCH = 64;
// The write-ahead log is truncated to this after a checkpoint, so it does not stay at its largest.
const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;
// SQLite's page cache for the file, in KiB (a negative cache_size): better-sqlite3 builds SQLite with
// 16 MB per connection, which fills as the file grows and stays in the process's memory. A read is a
// point lookup by key (a miss, or a stand-in when the site fails) and a write appends one answer;
// 2 MB keeps the B-trees' upper pages, and the rest comes from the file system's cache.
const PAGE_CACHE_KIB = 2048;
// The bound while the disk refuses the file and the answers are kept in the process's memory instead.
const IN_MEMORY_MAX_BYTES = 16 * 1024 * 1024;
// A second process on the same file (another instance given the same DATA_DIR) waits this long for its lock.
const BUSY_TIMEOUT_MS = 200;

/** The file's connection set up: its table (made afresh when of another shape) and statements, and its counts. */
function prepareFile(db: Database.Database, now: () => number, maxBytes: number) {
  // Before the first table exists, so that freed pages can be handed back to the file system.
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  if (db.pragma('user_version', { simple: true }) !== SCHEMA_VERSION) {
    db.exec('DROP TABLE IF EXISTS answers');
    // Small columns first: a scan of them never reads the stored bytes' overflow pages.
    db.exec(`CREATE TABLE answers (
      key TEXT PRIMARY KEY,
      expires_at INTEGER NOT NULL,
      used_at INTEGER NOT NULL,
      bytes INTEGER NOT NULL,
      stored BLOB NOT NULL
    )`);
    db.exec('CREATE INDEX answers_by_use ON answers (used_at)');
    db.exec('CREATE INDEX answers_by_expiry ON answers (expires_at)');
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }
  // Reads the free pages' list: a file damaged there is found here, at start, and replaced.
  db.pragma('incremental_vacuum');

  const select = db.prepare<[string, number], { stored: Buffer; used_at: number }>(
    'SELECT stored, used_at FROM answers WHERE key = ? AND expires_at > ?',
  );
  const touch = db.prepare<[number, string]>('UPDATE answers SET used_at = ? WHERE key = ?');
  const sizeOf = db.prepare<[string], { bytes: number }>('SELECT bytes FROM answers WHERE key = ?');
  const upsert = db.prepare<[string, number, number, number, Buffer]>(
    'INSERT INTO answers (key, expires_at, used_at, bytes, stored) VALUES (?, ?, ?, ?, ?) ' +
      'ON CONFLICT (key) DO UPDATE SET expires_at = excluded.expires_at, used_at = excluded.used_at, bytes = excluded.bytes, stored = excluded.stored',
  );
  const remove = db.prepare<[string], { bytes: number }>('DELETE FROM answers WHERE key = ? RETURNING bytes');
  const removeExpired = db.prepare<[number], { bytes: number }>('DELETE FROM answers WHERE expires_at <= ? RETURNING bytes');
  const leastUsed = db.prepare<[number], { key: string }>('SELECT key FROM answers ORDER BY used_at LIMIT ?');
  const totals = db.prepare<[], { entries: number; bytes: number }>(
    'SELECT count(*) AS entries, coalesce(sum(bytes), 0) AS bytes FROM answers',
  );

  const counts = { ...totals.get()!, prunedAt: -Infinity };

  const forget = (removed: { bytes: number }[]) => {
    for (const row of removed) {
      counts.entries -= 1;
      counts.bytes -= row.bytes;
    }
  };

  function pruneExpired(at: number): void {
    if (at - counts.prunedAt < PRUNE_EVERY_MS) return;
    counts.prunedAt = at;
    forget(removeExpired.all(at));
  }

  function evictPastBound(): void {
    while (counts.bytes > maxBytes) {
      const batch = leastUsed.all(EVICT_BATCH);
      if (batch.length === 0) return;
      for (const { key } of batch) {
        forget(remove.all(key));
        if (counts.bytes <= maxBytes) return;
      }
    }
  }

  const store = db.transaction((key: string, stored: Buffer, expiresAt: number, at: number) => {
    const size = stored.length + Buffer.byteLength(key);
    const previous = sizeOf.get(key);
    upsert.run(key, expiresAt, at, size, stored);
    if (previous === undefined) counts.entries += 1;
    counts.bytes += size - (previous?.bytes ?? 0);
    pruneExpired(at);
    evictPastBound();
  });

  return {
    counts,
    read(key: string): CatalogAnswer | undefined {
      const at = now();
      const row = select.get(key, at);
      if (row === undefined) return undefined;
      if (at - row.used_at >= TOUCH_EVERY_MS) touch.run(at, key);
      const answer = decodeAnswer(row.stored);
      // A row of another form is dropped alone; the rest of the file stays.
      if (answer === undefined) forget(remove.all(key));
      return answer;
    },
    write(key: string, stored: Buffer, expiresAt: number, at: number) {
      try {
        store(key, stored, expiresAt, at);
      } catch (error) {
        // The counts as the file has them, after a write that failed half-way was rolled back.
        Object.assign(counts, totals.get()!);
        throw error;
      }
    },
    delete: (key: string) => forget(remove.all(key)),
  };
}

/** Opens (or creates) the file; a damaged one is moved aside and started afresh, at start or when an operation finds it so. */
export function openAnswerFile({ path, maxBytes, keepUntil, now, logger }: AnswerFileOptions): AnswerFile {
  const file = openSqliteFile({
    path,
    log: logger,
    prepare: (db, inMemory) => prepareFile(db, now, inMemory ? Math.min(maxBytes, IN_MEMORY_MAX_BYTES) : maxBytes),
  });

  // A failing file (disk full, removed under us) costs the kept copies, never the request.
  function guarded<T>(what: string, fallback: T, operation: () => T): T {
    try {
      return operation();
    } catch (error) {
      logger.warn({ err: error, path }, `kept answers: could not ${what}`);
      return fallback;
    }
  }

  return {
    read: (key) => guarded('read an answer', undefined, () => file.use((handle) => handle.read(key))),
    write: (key, answer) =>
      guarded('keep an answer', undefined, () => {
        const expiresAt = keepUntil(answer);
        const at = now();
        if (expiresAt <= at) return;
        const stored = encodeAnswer(answer);
        file.use((handle) => handle.write(key, stored, expiresAt, at));
      }),
    delete: (key) => guarded('drop an answer', undefined, () => file.use((handle) => handle.delete(key))),
    size: () => file.use(({ counts }) => ({ entries: counts.entries, bytes: counts.bytes })),
    close: () => file.close(),
  };
}

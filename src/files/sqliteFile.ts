import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { moveAside, type DamageLog } from './moveAside.js';

// What SQLite answers for a file that is not a database, or whose pages are damaged (the extended
// codes SQLITE_CORRUPT_INDEX and the like included).
const isDamage = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
};
// What SQLite answers when the disk refuses it (full, or failing to size the WAL's shared memory).
const isDiskTrouble = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || code === 'SQLITE_CANTOPEN');
};
const COMPANIONS = ['-wal', '-shm'];
const IN_MEMORY = ':memory:';

/** A DATA_DIR SQLite file that replaces itself with a new one when it is found damaged. */
export interface SqliteFile<Handle> {
  /**
   * Runs `operation` on the open file. An operation that finds the file damaged moves it aside and
   * opens a new one (through `prepare` again) before its error is thrown on: the next operation
   * runs on the new file.
   */
  use<T>(operation: (handle: Handle) => T): T;
  close(): void;
}

export interface SqliteFileOptions<Handle> {
  path: string;
  log: DamageLog;
  /**
   * Sets the connection up (pragmas, tables, statements) and gives what operations use; called
   * again for each new file. `inMemory` when the disk refused the file and the database lives in
   * memory until the service restarts.
   */
  prepare: (db: Database.Database, inMemory: boolean) => Handle;
}

/**
 * Opens (or creates) the SQLite file at `path`. A file that is not a database, or whose pages are
 * damaged where `prepare` reads them, is moved aside (src/files/moveAside.ts) and a new one made:
 * the stores in DATA_DIR hold what can be read or fetched again, so a damaged file costs its
 * contents, never the start.
 */
export function openSqliteFile<Handle>({ path, log, prepare }: SqliteFileOptions<Handle>): SqliteFile<Handle> {
  mkdirSync(dirname(path), { recursive: true });
  const openAt = (location: string): { db: Database.Database; handle: Handle } => {
    const db = new Database(location);
    try {
      return { db, handle: prepare(db, location === IN_MEMORY) };
    } catch (error) {
      db.close();
      throw error;
    }
  };
  /** The file, or (when the disk refuses it) a database in memory: a full disk costs what it cannot keep, not the start. */
  const open = (): { db: Database.Database; handle: Handle } => {
    try {
      return openAt(path);
    } catch (error) {
      if (!isDiskTrouble(error)) throw error;
      log.error(
        { file: path, cause: (error as Error).message },
        'the disk refuses this file (full or failing); its store lives in memory until a restart',
      );
      return openAt(IN_MEMORY);
    }
  };
  const reopen = (cause: unknown) => {
    moveAside(path, cause, log, COMPANIONS);
    return open();
  };

  let current: { db: Database.Database; handle: Handle };
  try {
    current = open();
  } catch (error) {
    if (!isDamage(error)) throw error;
    current = reopen(error);
  }

  return {
    use(operation) {
      try {
        return operation(current.handle);
      } catch (error) {
        if (isDamage(error)) {
          current.db.close();
          current = reopen(error);
        }
        throw error;
      }
    },
    close: () => current.db.close(),
  };
}

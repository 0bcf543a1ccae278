import { renameSync } from 'node:fs';

/** Where a store tells that it moved a damaged file aside (the service's pino logger). */
export interface DamageLog {
  error(fields: object, message: string): void;
}

/**
 * Moves a damaged file out of its store's way, to `<path>.damaged-<ms>` beside it, so that the store
 * starts afresh while the damaged bytes stay for whoever wants to look at them; logged once, with
 * the file's name and the cause. `companions` are suffixes of the files that belong to it (SQLite's
 * `-wal` and `-shm`), moved with it when they exist.
 */
export function moveAside(path: string, cause: unknown, log: DamageLog, companions: readonly string[] = []): string {
  const movedTo = `${path}.damaged-${Date.now()}`;
  renameSync(path, movedTo);
  for (const suffix of companions) {
    try {
      renameSync(`${path}${suffix}`, `${movedTo}${suffix}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  log.error(
    { file: path, movedTo, cause: cause instanceof Error ? cause.message : String(cause) },
    'damaged file moved aside; starting afresh',
  );
  return movedTo;
}

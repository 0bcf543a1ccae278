import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getSystemErrorMap } from 'node:util';

/**
 * Why the service cannot write in DATA_DIR (read-only, not permitted, not a directory), as the one
 * line the start stops with; undefined when it can. The check writes an empty file, so a full disk
 * passes: it costs only what cannot be written, not the start.
 */
export function dataDirProblem(dataDir: string): string | undefined {
  const probe = join(dataDir, `.write-check-${process.pid}`);
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe);
    return undefined;
  } catch (error) {
    return `DATA_DIR=${dataDir} cannot be written: ${causeOf(error as NodeJS.ErrnoException)}`;
  }
}

/** The system's words for an error and its code, e.g. "read-only file system (EROFS)". */
function causeOf(error: NodeJS.ErrnoException): string {
  const [name, text] = (error.errno === undefined ? undefined : getSystemErrorMap().get(error.errno)) ?? [error.code, error.message];
  return `${text} (${name})`;
}

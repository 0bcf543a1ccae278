import { accessSync, constants, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const PREFIX = 'catalog-suite-';
/** Linux's shared-memory tmpfs, where the machine has one. */
const MEMORY_FOLDER = '/dev/shm';

/**
 * Where the run's folder goes: in memory where the machine has a tmpfs for it, else in the temporary
 * folder. Every app a test starts opens its SQLite files in a DATA_DIR of its own, and SQLite syncs
 * them to the disk as it creates, converts (WAL) and closes them: on a disk each sync holds the test's
 * event loop for as long as the disk takes, on a tmpfs it returns at once. Nothing in the folder is
 * meant to outlive the run.
 */
function baseFolder(): string {
  try {
    if (statSync(MEMORY_FOLDER).isDirectory()) {
      accessSync(MEMORY_FOLDER, constants.W_OK);
      return MEMORY_FOLDER;
    }
  } catch {
    // No shared-memory folder we may write to: the temporary folder, as everywhere else.
  }
  return tmpdir();
}

/**
 * The suite's global setup: everything its files and their child processes make in the temporary
 * folder (DATA_DIRs, Redis and upstream state, the child services' build) goes under one folder of
 * the run, removed when the run ends, so that no run leaves its folders behind on the machine. Each
 * project inherits the setup; the first one makes the folder, and the others find it in place.
 */
export default function runTempDir(): (() => void) | undefined {
  if (basename(tmpdir()).startsWith(PREFIX)) return undefined;
  const folder = mkdtempSync(join(baseFolder(), PREFIX));
  process.env.TMPDIR = folder;
  // A Chromium that a worker left running when it ended may still be writing its profile in the folder
  // for a moment: the removal is tried again a few times rather than failing the run with ENOTEMPTY.
  return () => rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
}

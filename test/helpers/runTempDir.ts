import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const PREFIX = 'catalog-suite-';

/**
 * The suite's global setup: everything its files and their child processes make in the temporary
 * folder (DATA_DIRs, Redis and upstream state, the child services' build) goes under one folder of
 * the run, removed when the run ends, so that no run leaves its folders behind on the machine. Each
 * project inherits the setup; the first one makes the folder, and the others find it in place.
 */
export default function runTempDir(): (() => void) | undefined {
  if (basename(tmpdir()).startsWith(PREFIX)) return undefined;
  const folder = mkdtempSync(join(tmpdir(), PREFIX));
  process.env.TMPDIR = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}

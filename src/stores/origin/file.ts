import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../../files/atomicFile.js';
import { PersistedOrigin, type OriginStore } from '../../upstream/originStore.js';

// The adopted origin survives restarts: a small JSON file in DATA_DIR, replaced atomically, so a
// crash never leaves half a file.

const FILE_NAME = 'upstream-origin.json';

export function createFileOrigin(dataDir: string): OriginStore {
  const path = join(dataDir, FILE_NAME);
  return {
    read() {
      try {
        const parsed = PersistedOrigin.safeParse(JSON.parse(readFileSync(path, 'utf8')));
        return parsed.success ? parsed.data : null;
      } catch {
        // No file yet, or an unreadable one: start from the configured order.
        return null;
      }
    },
    write: (choice) => writeFileAtomically(path, `${JSON.stringify(choice, null, 2)}\n`),
  };
}

import { join } from 'node:path';
import type { Logger } from '../../config/logger.js';
import { writeFileAtomically } from '../../files/atomicFile.js';
import { readJsonFile } from '../../files/jsonFile.js';
import { PersistedOrigin, type OriginStore } from '../../upstream/originStore.js';

// The adopted origin survives restarts: a small JSON file in DATA_DIR, replaced atomically, so a
// crash never leaves half a file; a damaged one is moved aside and the configured order used.

const FILE_NAME = 'upstream-origin.json';

export function createFileOrigin(dataDir: string, logger: Logger): OriginStore {
  const path = join(dataDir, FILE_NAME);
  return {
    read: () => readJsonFile(path, PersistedOrigin, logger),
    write: (choice) => writeFileAtomically(path, `${JSON.stringify(choice, null, 2)}\n`),
  };
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomically } from '../files/atomicFile.js';

// The adopted origin survives restarts: a small JSON file in DATA_DIR, replaced atomically, so a
// crash never leaves half a file.

const FILE_NAME = 'upstream-origin.json';

export const PersistedOrigin = z.object({
  origin: z.string(),
  /** The configured origin that redirected here, when this origin was a move target. */
  movedFrom: z.string().nullable(),
  reason: z.string(),
  adoptedAt: z.string(),
});
export type PersistedOrigin = z.infer<typeof PersistedOrigin>;

export interface OriginStore {
  /** Synchronous: read once, while the app is assembled. */
  read(): PersistedOrigin | null;
  write(choice: PersistedOrigin): Promise<void>;
}

export function createOriginStore(dataDir: string): OriginStore {
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

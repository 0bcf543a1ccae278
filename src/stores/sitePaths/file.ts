import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../../config/logger.js';
import { writeFileAtomically } from '../../files/atomicFile.js';
import { readJsonFile } from '../../files/jsonFile.js';
import { OriginPaths, type SitePathsStore } from '../../upstream/sitePathsStore.js';

// The paths learned per origin survive restarts: one small JSON file in DATA_DIR, replaced
// atomically, as the adopted origin is (stores/origin/file.ts).

const FILE_NAME = 'upstream-paths.json';
const Kept = z.record(z.string(), OriginPaths);

export function createFileSitePaths(dataDir: string, logger: Logger): SitePathsStore {
  const path = join(dataDir, FILE_NAME);
  let kept: Record<string, OriginPaths> | undefined;
  // Read once, at the first use: a damaged file is moved aside, and the paths are learned again.
  const all = () => (kept ??= readJsonFile(path, Kept, logger) ?? {});
  return {
    read: async (origin) => all()[origin] ?? null,
    async write(paths) {
      const next = { ...all(), [paths.origin]: paths };
      kept = next;
      await writeFileAtomically(path, `${JSON.stringify(next, null, 2)}\n`).catch((error: unknown) =>
        logger.warn({ err: error, file: path }, 'could not keep the learned upstream paths'),
      );
    },
  };
}

import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const FOLDERS = ['test/unit', 'test/integration', 'test/browser'];
/**
 * Files named *.alone.test.ts load the whole machine (a flood of requests, a child service under
 * measurement) or time what another file's load would slow: they run after the others, one at a time.
 */
const ALONE = '**/*.alone.test.ts';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    // Integration tests wait on a loopback simulator with injected latency and hangs.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'parallel',
          include: FOLDERS.map((folder) => `${folder}/**/*.test.ts`),
          exclude: [ALONE],
          // Every file has its own ports, DATA_DIR and redis-server: they run side by side, one per core
          // (vitest's default leaves a core idle).
          maxWorkers: Math.max(2, availableParallelism()),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: FOLDERS.map((folder) => `${folder}/${ALONE}`),
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

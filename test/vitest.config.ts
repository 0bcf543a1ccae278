import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Files named *.alone.test.ts load the whole machine (a flood of requests, a child service under
 * measurement) or time what another file's load would slow: they run after the others, one at a time.
 */
const ALONE = '**/*.alone.test.ts';
// Every file has its own ports, DATA_DIR and redis-server: they run side by side, one per core
// (vitest's default leaves a core idle).
const WORKERS = Math.max(2, availableParallelism());
/** Unit files that read their own process's event loop, which what another file left running in a shared worker would load. */
const OWN_EVENT_LOOP = ['test/unit/crawler/loopYield.test.ts'];

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    // Integration tests wait on a loopback simulator with injected latency and hangs.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The two projects of group 0 share its workers: vitest runs the isolated files first, then
    // the unit files fill the end of the run.
    projects: [
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/integration/**/*.test.ts', 'test/browser/**/*.test.ts', ...OWN_EVENT_LOOP],
          exclude: [ALONE],
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: [ALONE, ...OWN_EVENT_LOOP],
          maxWorkers: WORKERS,
          // A unit file leaves no state in the modules it imports (no module-level store, no mock,
          // fake timers restored after each test), so the files of a worker share one module graph
          // instead of importing it again each: the import was most of a unit file's time.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'alone',
          include: ['test/unit', 'test/integration', 'test/browser'].map((folder) => `${folder}/${ALONE}`),
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const FOLDERS = ['test/unit', 'test/integration', 'test/browser'];
// Every file has its own ports, DATA_DIR and redis-server: they run side by side, one per core
// (vitest's default leaves a core idle).
const WORKERS = Math.max(2, availableParallelism());
/**
 * Files that read what their own process does, which what another file left running in a shared worker
 * would load: its event loop, its parse threads (every thread held, then the queue drained). Each runs
 * in a process of its own, beside the shared files.
 */
const OWN_PROCESS = ['test/unit/crawler/loopYield.test.ts', 'test/unit/catalog/pageParser.test.ts'];

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    globalSetup: ['test/helpers/runTempDir.ts', 'test/helpers/programBuildSetup.ts'],
    setupFiles: ['test/helpers/parseThreads.ts', 'test/helpers/realTimersLeft.ts'],
    // Integration tests wait on a loopback simulator with injected latency and hangs.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The two projects share the workers (one group: the same maxWorkers).
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: FOLDERS.map((folder) => `${folder}/**/*.test.ts`),
          exclude: OWN_PROCESS,
          maxWorkers: WORKERS,
          // The files of a worker share one module graph instead of importing src (and starting a
          // parse thread) again each: a file leaves no state in the modules it imports (the app,
          // its stores and its servers are made and closed by each test; no vi.mock; fake timers
          // and spies are restored after each test), and the parse threads are the process's,
          // shared by every app in it, as in production.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: OWN_PROCESS,
          maxWorkers: WORKERS,
        },
      },
    ],
  },
});

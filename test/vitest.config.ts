import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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

/**
 * Vitest's order (files that failed last time first, then the longest, or the largest where it has no
 * timings, as on a clean clone), with every unit file after every integration and browser file. A
 * unit file takes well under a second; an integration file takes up to twenty, and one that comes last
 * runs alone while the other worker has nothing left. The unit files, some 30 s of work, then fill both
 * workers to the end.
 */
class UnitFilesLast extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const isUnit = (file: TestSpecification) => (file.moduleId.includes('/test/unit/') ? 1 : 0);
    // Array.prototype.sort is stable: within each kind, vitest's order stays.
    return (await super.sort(files)).sort((a, b) => isUnit(a) - isUnit(b));
  }
}

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    globalSetup: ['test/helpers/runTempDir.ts', 'test/helpers/programBuildSetup.ts'],
    setupFiles: ['test/helpers/parseThreads.ts', 'test/helpers/realTimersLeft.ts'],
    // Integration tests wait on a loopback simulator with injected latency and hangs.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    sequence: { sequencer: UnitFilesLast },
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

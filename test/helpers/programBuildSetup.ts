import type { TestProject } from 'vitest/node';
import { buildingPath } from '../../scripts/programBuild.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the parse threads' task is built to JavaScript (src/catalog/parseTask.ts's build), once the build is made. */
    parseTaskBuild: string;
  }
}

/**
 * The suite's global setup, after runTempDir: the programs' build of this run (scripts/programBuild.mjs)
 * is started here, in the run's folder, once, rather than by two workers at once the first time one
 * needs it, and made while the workers start and import; the parse threads of every worker load their
 * task from it (parseThreads.ts).
 */
export default function programBuildSetup(project: TestProject): void {
  project.provide('parseTaskBuild', buildingPath('src/catalog/parseTask.ts'));
}

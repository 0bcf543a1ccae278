import type { TestProject } from 'vitest/node';
import { builtPath } from '../../scripts/programBuild.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The parse threads' task, built to JavaScript (src/catalog/parseTask.ts's build). */
    parseTaskBuild: string;
  }
}

/**
 * The suite's global setup, after runTempDir: the programs' build of this run (scripts/programBuild.mjs),
 * made once here, in the run's folder, before any file starts, rather than by two workers at once the
 * first time one needs it; the parse threads of every worker load their task from it (parseThreads.ts).
 */
export default async function programBuildSetup(project: TestProject): Promise<void> {
  project.provide('parseTaskBuild', await builtPath('src/catalog/parseTask.ts'));
}

import type { TestProject } from 'vitest/node';
import { builtParseTask, startProgramsBuild, stopUnfinishedProgramsBuild } from '../../scripts/programBuild.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The parse threads' task built to JavaScript (src/catalog/parseTask.ts's build). */
    parseTaskBuild: string;
  }
}

/**
 * The suite's global setup, after runTempDir: the parse task is built before any file starts (it
 * takes well under a second alone), and the parse threads of every worker load it (parseThreads.ts);
 * the other programs of this run (scripts/programBuild.mjs), which child services start from, are
 * built once here while the workers start and import, rather than by two workers at once the first
 * time one needs them; a run that ends before that build does (unit files alone) stops it.
 */
export default async function programBuildSetup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('parseTaskBuild', await builtParseTask());
  startProgramsBuild();
  return stopUnfinishedProgramsBuild;
}

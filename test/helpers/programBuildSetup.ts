import type { TestProject } from 'vitest/node';
import { builtPath } from '../../scripts/programBuild.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The parse threads' task built to JavaScript (src/catalog/parseTask.ts's build). */
    parseTaskBuild: string;
  }
}

/**
 * The suite's global setup, after runTempDir: the run's programs (scripts/programBuild.mjs) are built
 * before any file starts, once, rather than by two workers at once the first time one needs them. The
 * parse threads of every worker load the parse task from it (parseThreads.ts); child services start
 * from it.
 */
export default async function programBuildSetup(project: TestProject): Promise<void> {
  project.provide('parseTaskBuild', await builtPath('src/catalog/parseTask.ts'));
}

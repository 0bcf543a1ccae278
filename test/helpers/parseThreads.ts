import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, inject } from 'vitest';
import { loadParseTaskFrom } from '../../src/catalog/pageParser.js';

// Each test file's setup: the parse threads its apps start load their task from the run's build
// (programBuildSetup.ts), as a deployment's threads load dist/, not from the TypeScript sources.

/** How long the first file of a worker waits for the build the suite's setup started (a few seconds on a loaded machine). */
const BUILD_WAIT_MS = 60_000;
const BUILD_LOOK_MS = 25;

const taskBuild = inject('parseTaskBuild');

// Before the file's own hooks and tests, after its imports: the build is made meanwhile.
beforeAll(async () => {
  for (const giveUpAt = Date.now() + BUILD_WAIT_MS; !existsSync(taskBuild); await sleep(BUILD_LOOK_MS))
    if (Date.now() > giveUpAt) throw new Error(`the parse task's build did not appear at ${taskBuild} within ${BUILD_WAIT_MS} ms`);
  loadParseTaskFrom(taskBuild);
}, BUILD_WAIT_MS + 5_000);

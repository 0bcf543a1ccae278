import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleFor } from '../../src/openapi/examples/index.js';
import { REPO_ROOT, runCommand, runNodeTool } from '../helpers/commandLine.js';
import { expectedEpisode } from '../helpers/seriesExpectations.js';
import { listenOnLoopback, startTestStack, type LoopbackServer, type TestStack } from '../helpers/testApp.js';
import { SERIES } from '../simulator/dataset.js';
import { episodeSlug, episodesOf, findEpisode } from '../simulator/episodes.js';
import { VARIANTS } from '../simulator/variant.js';

// Typed access as a client author gets it: types generated from the served /openapi.json by
// openapi-typescript, a small program using openapi-fetch compiled by tsc (test/typed-client), run
// with Node against the app on loopback.

const CLIENT_DIR = `${REPO_ROOT}test/typed-client`;
const STEP_TIMEOUT_MS = 90_000;

let stack: TestStack;
let server: LoopbackServer;

beforeAll(async () => {
  stack = await startTestStack();
  server = await listenOnLoopback(stack.app);
});
afterAll(async () => {
  await server.close();
  await stack.close();
});

describe('a typed client from /openapi.json', () => {
  it(
    'generates the types, compiles the client with tsc, and follows series → episode → a server URL',
    async () => {
      const generate = await runNodeTool(
        'openapi-typescript/bin/cli.js',
        [`${server.baseUrl}/openapi.json`, '--output', `${CLIENT_DIR}/api.d.ts`],
        { timeoutMs: STEP_TIMEOUT_MS },
      );
      expect(generate.exitCode, generate.stderr).toBe(0);
      const types = readFileSync(`${CLIENT_DIR}/api.d.ts`, 'utf8');
      expect(types).toContain('export interface paths {');
      expect(types).toContain('"/catalog/episode/{slug}": {');

      // The refused calls compile too: each of their @ts-expect-error must meet an error.
      const compile = await runNodeTool('typescript/bin/tsc', ['--project', `${CLIENT_DIR}/tsconfig.json`], { timeoutMs: STEP_TIMEOUT_MS });
      expect(compile.stdout + compile.stderr).toBe('');
      expect(compile.exitCode).toBe(0);

      const seriesSlug = exampleFor('/catalog/series/{slug}').parameters.slug as string;
      const run = await runCommand(process.execPath, [`${REPO_ROOT}test-output/typed-client/client.js`, server.baseUrl, seriesSlug]);
      expect(run.stderr).toBe('');
      expect(run.exitCode).toBe(0);

      const series = SERIES.find((item) => item.slug === seriesSlug);
      const newest = series && episodesOf(series)[0];
      const latest = newest && findEpisode(episodeSlug(newest));
      expect(latest).toBeTruthy();
      const ctx = {
        origin: stack.simulator.origin,
        host: new URL(stack.simulator.origin).host,
        variant: VARIANTS[stack.simulator.variant],
      };
      expect(run.stdout).toBe(`${expectedEpisode(ctx, latest!).servers[0]?.url}\n`);
    },
    3 * STEP_TIMEOUT_MS,
  );
});

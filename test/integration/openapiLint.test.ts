import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNodeTool } from '../helpers/commandLine.js';
import { listenOnLoopback, startTestStack, type LoopbackServer, type TestStack } from '../helpers/testApp.js';

// The two linters a client author's tools run first, as command-line tools over the document the app
// serves: Redocly CLI with its `recommended` rules, Spectral with `spectral:oas`. Any finding of any
// severity fails. Both run offline: Redocly's telemetry and update notice are off.

const LINT_TIMEOUT_MS = 90_000;

interface RedoclyReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

interface SpectralResult {
  code: string;
  severity: number;
  message: string;
  path: string[];
}

let stack: TestStack;
let server: LoopbackServer;
/** A directory of its own: no redocly.yaml or .spectral.yaml of the repository is picked up. */
let workDir: string;
let spectralRuleset: string;

beforeAll(async () => {
  stack = await startTestStack();
  server = await listenOnLoopback(stack.app);
  workDir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  spectralRuleset = join(workDir, 'spectral.yaml');
  writeFileSync(spectralRuleset, 'extends: ["spectral:oas"]\n');
});
afterAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
  await server.close();
  await stack.close();
});

/** The linter's report and its exit code; a run that printed no report (a crash, a bad ruleset) fails here. */
async function redocly(target: string): Promise<{ exitCode: number; report: RedoclyReport }> {
  const run = await runNodeTool('@redocly/cli/bin/cli.js', ['lint', '--extends', 'recommended', '--format', 'json', target], {
    cwd: workDir,
    env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    timeoutMs: LINT_TIMEOUT_MS,
  });
  expect(run.stdout, run.stderr).toMatch(/^\{/);
  return { exitCode: run.exitCode, report: JSON.parse(run.stdout) as RedoclyReport };
}

async function spectral(target: string): Promise<{ exitCode: number; results: SpectralResult[] }> {
  // --fail-severity hint: any finding at all makes the exit code 1.
  const run = await runNodeTool(
    '@stoplight/spectral-cli/dist/index.js',
    ['lint', '--ruleset', spectralRuleset, '--format', 'json', '--fail-severity', 'hint', '--quiet', target],
    { cwd: workDir, timeoutMs: LINT_TIMEOUT_MS },
  );
  expect(run.stdout, run.stderr).toMatch(/^\[/);
  return { exitCode: run.exitCode, results: JSON.parse(run.stdout) as SpectralResult[] };
}

describe('/openapi.json under the linters client tools run', () => {
  it(
    "passes Redocly CLI's recommended rules with no error, no warning and nothing ignored",
    async () => {
      const { exitCode, report } = await redocly(`${server.baseUrl}/openapi.json`);
      expect(report.problems).toEqual([]);
      expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
      expect(exitCode).toBe(0);
    },
    LINT_TIMEOUT_MS,
  );

  it(
    "passes Spectral's spectral:oas rules with no finding of any severity",
    async () => {
      const { exitCode, results } = await spectral(`${server.baseUrl}/openapi.json`);
      expect(results).toEqual([]);
      expect(exitCode).toBe(0);
    },
    LINT_TIMEOUT_MS,
  );

  it(
    'would fail on a document without security, license and contact (the linters do report)',
    async () => {
      const served = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as {
        security?: unknown;
        info: Record<string, unknown>;
        paths: object;
      };
      delete served.security;
      delete served.info.license;
      delete served.info.contact;
      const file = join(workDir, 'stripped.json');
      writeFileSync(file, JSON.stringify(served));

      const { exitCode: redoclyExit, report } = await redocly(file);
      const rules = new Set(report.problems.map((problem) => problem.ruleId));
      expect([...rules].sort()).toEqual(['info-license', 'security-defined']);
      // security-defined once per operation: every path has one.
      expect(report.totals).toEqual({ errors: Object.keys(served.paths).length, warnings: 1, ignored: 0 });
      expect(redoclyExit).toBe(1);

      const { exitCode: spectralExit, results } = await spectral(file);
      expect(results.map((result) => [result.code, result.path.join('.')])).toEqual([['info-contact', 'info']]);
      expect(spectralExit).toBe(1);
    },
    LINT_TIMEOUT_MS,
  );
});

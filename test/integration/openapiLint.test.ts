import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNodeTool } from '../helpers/commandLine.js';
import { listenOnLoopback, startTestStack, type LoopbackServer, type TestStack } from '../helpers/testApp.js';

// The two linters a client author's tools run first, as command-line tools over the document the app
// serves: Redocly CLI with its `recommended` rules, Spectral with `spectral:oas`. Any finding of any
// severity fails. Both run offline: Redocly's telemetry and update notice are off. Each linter also
// runs over the document stripped of what they check, to show that they do report. Spectral, whose
// start is the longer, reads both documents in one run and names each finding's document; Redocly
// reads each alone, so each document's exit code is asserted too.

const LINT_TIMEOUT_MS = 90_000;

interface RedoclyReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

interface SpectralResult {
  /** The document of the finding, as it was named to Spectral. */
  source: string;
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
let servedUrl: string;
/** The served document without security, license and contact. */
let stripped: { file: string; operations: number };

beforeAll(async () => {
  stack = await startTestStack();
  server = await listenOnLoopback(stack.app);
  servedUrl = `${server.baseUrl}/openapi.json`;
  workDir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  spectralRuleset = join(workDir, 'spectral.yaml');
  writeFileSync(spectralRuleset, 'extends: ["spectral:oas"]\n');
  const served = (await (await fetch(servedUrl)).json()) as { security?: unknown; info: Record<string, unknown>; paths: object };
  delete served.security;
  delete served.info.license;
  delete served.info.contact;
  stripped = { file: join(workDir, 'stripped.json'), operations: Object.keys(served.paths).length };
  writeFileSync(stripped.file, JSON.stringify(served));
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

let spectralRun: Promise<{ exitCode: number; results: SpectralResult[] }> | undefined;

/** Spectral's one run over the served document and the stripped one, made by whichever test asks first. */
function spectralOfBoth(): Promise<{ exitCode: number; results: SpectralResult[] }> {
  spectralRun ??= (async () => {
    // --fail-severity hint: any finding at all makes the exit code 1.
    const run = await runNodeTool(
      '@stoplight/spectral-cli/dist/index.js',
      ['lint', '--ruleset', spectralRuleset, '--format', 'json', '--fail-severity', 'hint', '--quiet', servedUrl, stripped.file],
      { cwd: workDir, timeoutMs: LINT_TIMEOUT_MS },
    );
    expect(run.stdout, run.stderr).toMatch(/^\[/);
    return { exitCode: run.exitCode, results: JSON.parse(run.stdout) as SpectralResult[] };
  })();
  return spectralRun;
}

describe('/openapi.json under the linters client tools run', () => {
  it(
    "passes Redocly CLI's recommended rules with no error, no warning and nothing ignored",
    async () => {
      const { exitCode, report } = await redocly(servedUrl);
      expect(report.problems).toEqual([]);
      expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
      expect(exitCode).toBe(0);
    },
    LINT_TIMEOUT_MS,
  );

  it(
    "passes Spectral's spectral:oas rules with no finding of any severity",
    async () => {
      const { results } = await spectralOfBoth();
      expect(results.filter((result) => result.source !== stripped.file)).toEqual([]);
    },
    LINT_TIMEOUT_MS,
  );

  it(
    'would fail on a document without security, license and contact (the linters do report)',
    async () => {
      const { exitCode: redoclyExit, report } = await redocly(stripped.file);
      const rules = new Set(report.problems.map((problem) => problem.ruleId));
      expect([...rules].sort()).toEqual(['info-license', 'security-defined']);
      // security-defined once per operation: every path has one.
      expect(report.totals).toEqual({ errors: stripped.operations, warnings: 1, ignored: 0 });
      expect(redoclyExit).toBe(1);

      // The served document has no finding (above): the exit code is the stripped one's.
      const { exitCode: spectralExit, results } = await spectralOfBoth();
      expect(results.map((result) => [result.source, result.code, result.path.join('.')])).toEqual([
        [stripped.file, 'info-contact', 'info'],
      ]);
      expect(spectralExit).toBe(1);
    },
    LINT_TIMEOUT_MS,
  );
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/catalog/endpoints/index.js';
import { answerForm } from '../../src/pages/codeSamples.js';
import { REPO_ROOT, runCommand, type CommandResult } from '../helpers/commandLine.js';
import { answerShown, docsSampleBlocks, sameMediaType, shownMismatch, type DocsSampleBlock } from '../helpers/docsSamples.js';
import { listenOnLoopback, startTestStack, type LoopbackServer, type TestStack } from '../helpers/testApp.js';

// The code samples of /docs, pasted as a person would: each curl sample run by bash, each Python
// sample by python3 with requests, against the app (on the simulator) listening on loopback.

const PYTHON_SAMPLES = join(REPO_ROOT, 'test/helpers/pythonSamples.py');

let stack: TestStack;
let server: LoopbackServer;
let blocks: DocsSampleBlock[];
let workDir: string;

beforeAll(async () => {
  stack = await startTestStack({ env: { REPORT_RATE_LIMIT_MAX: '1000' } });
  server = await listenOnLoopback(stack.app);
  workDir = mkdtempSync(join(tmpdir(), 'code-samples-'));
  // Fetched over the loopback URL, so the samples name this server, as a visitor's page names theirs.
  blocks = docsSampleBlocks(await (await fetch(`${server.baseUrl}/docs`)).text());
});
afterAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
  await server.close();
  await stack.close();
});

/**
 * Each sample's exit code and output, as `python3 -c SAMPLE` gives them, from one python3 for all the
 * samples (test/helpers/pythonSamples.py): requests is imported once, not once per sample.
 */
async function runPythonSamples(samples: string[]): Promise<CommandResult[]> {
  const samplesFile = join(workDir, 'python-samples.json');
  writeFileSync(samplesFile, JSON.stringify(samples));
  const run = await runCommand('python3', [PYTHON_SAMPLES, samplesFile], { timeoutMs: 150_000 });
  expect(run.exitCode, run.stderr).toBe(0);
  const runs = JSON.parse(run.stdout) as CommandResult[];
  expect(runs).toHaveLength(samples.length);
  return runs;
}

/** The status a request of this block succeeds with. */
const successStatus = (block: DocsSampleBlock) => (block.name.startsWith('POST ') ? 201 : 200);

describe('the code samples on /docs', () => {
  it('are there for every endpoint of the table and for POST /api/reports, each in curl, JavaScript and Python', () => {
    const names = blocks.map((block) => block.name);
    for (const endpoint of endpoints) expect(names).toContain(`GET ${endpoint.path}`);
    expect(names).toContain('POST /api/reports');
    expect(new Set(names).size).toBe(names.length);
    for (const block of blocks) {
      expect(Object.keys(block.code)).toEqual(['curl', 'javascript', 'python']);
      expect(block.code.curl).toMatch(new RegExp(`^curl (-X POST )?'${server.baseUrl}/`));
    }
    const search = blocks.find((block) => block.name === 'GET /catalog/search');
    expect(search?.code.curl).toBe(`curl '${server.baseUrl}/catalog/search?q=soul'`);
    expect(search?.mediaType).toBe('application/json');
  });

  it('curl: every sample, run by bash as pasted, gets a success of its media type', async () => {
    const outcomes: [string, number, boolean, unknown][] = [];
    for (const [index, block] of blocks.entries()) {
      const bodyFile = join(workDir, `curl-${index}`);
      // Only what the test needs to see is added after the pasted command: where the body goes, and the status.
      const run = await runCommand('bash', [
        '-c',
        `${block.code.curl} --silent --show-error --output '${bodyFile}' --write-out '%{http_code} %{content_type}'`,
      ]);
      expect(run.exitCode, run.stderr).toBe(0);
      const [status, ...contentType] = run.stdout.split(' ');
      const body = readFileSync(bodyFile, 'utf8');
      const shown = answerShown(body, block.mediaType);
      outcomes.push([block.name, Number(status), sameMediaType(contentType.join(' '), block.mediaType), shown !== null && shown !== '']);
    }
    expect(outcomes).toEqual(blocks.map((block) => [block.name, successStatus(block), true, true]));
  }, 120_000);

  it('Python: every sample, run by python3 with requests, prints what the app answers to that request', async () => {
    const mismatches: string[] = [];
    const runs = await runPythonSamples(blocks.map((block) => block.code.python));
    for (const [index, block] of blocks.entries()) {
      const run = runs[index]!;
      if (run.exitCode !== 0) {
        mismatches.push(`${block.name}: python3 exited ${run.exitCode}: ${run.stderr}`);
        continue;
      }
      // print() ends with one newline of its own.
      const printed: unknown = answerForm(block.mediaType) === 'text' ? run.stdout.replace(/\n$/, '') : JSON.parse(run.stdout);
      const mismatch = await shownMismatch(block, printed, server.baseUrl);
      if (mismatch !== null) mismatches.push(mismatch);
    }
    expect(mismatches).toEqual([]);
  }, 180_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCommand } from '../helpers/commandLine.js';
import { README, readmeCommands } from '../helpers/readme.js';

// The README's commands, run as a reader pastes them where a test can: the demo (both commands that
// start it), the curl examples against it, and the reports CLI on the reports it took. Every other
// command is listed below with why it is not run here, so a command added to the README is either
// run or named.

const NOT_RUN: Record<string, string> = {
  'npm ci': 'installs the dependencies this test runs on',
  'npm start': 'builds dist/ and serves the live upstream',
  'npm test': 'the suite this test is part of',
  'npm run typecheck': '.ci/run runs it',
  'npm run lint': '.ci/run runs it',
  'npm run test:unit': 'part of npm test',
  'npm run test:integration': 'part of npm test',
  'npm run test:browser': 'part of npm test',
  'curl -s --compressed http://localhost:3000/export/catalog.json | jq -r \'.series[] | select(.status == "Ongoing") | .title\'':
    'needs a finished crawl, and jq; test/integration/catalogExport.test.ts reads the export',
  "python3 -c \"import pandas as pd; print(pd.read_json('http://localhost:3000/export/catalog.jsonl', lines=True)[['title','status','listedEpisodes']])\"":
    'needs a finished crawl, and pandas',
  'npm install openapi-fetch': 'installs from the registry; test/integration/typedClient.test.ts builds the same client offline',
  'npm install --save-dev openapi-typescript typescript@5': 'installs from the registry, as above',
  'npx openapi-typescript http://localhost:3000/openapi.json --output src/catalog-api.d.ts': 'test/integration/typedClient.test.ts runs it',
  'docker compose up --build': 'needs Docker',
  'docker build -t donghua-catalog-api .': 'needs Docker',
  'docker run -p 3000:3000 -v catalog-data:/app/data donghua-catalog-api': 'needs Docker',
};

/** The README's own command, whole: `part` itself, else the one command that contains it (or the test fails). */
function command(part: string): string {
  const commands = readmeCommands();
  if (commands.includes(part)) return part;
  const found = commands.filter((candidate) => candidate.includes(part));
  expect(found, part).toHaveLength(1);
  return found[0]!;
}

interface Demo {
  /** http://localhost:<port>, as the demo printed it. */
  base: string;
  dataDir: string;
  printed: string;
  process: ChildProcess;
}

/**
 * Starts the README's demo command on free ports and its own DATA_DIR, without the crawler (its
 * reading of the whole simulated site would load the machine for nothing here), and waits for the
 * line that names the API.
 */
async function startDemo(demoCommand: string): Promise<Demo> {
  const dataDir = mkdtempSync(join(tmpdir(), 'readme-demo-'));
  // Its own process group, so that stopping it reaches npm's children too.
  const child = spawn('sh', ['-c', demoCommand], {
    cwd: REPO_ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: '0',
      SIMULATOR_PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SIM_PROFILE: '',
      CRAWL_ENABLED: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const api = /^API:\s+(http:\/\/localhost:\d+)$/m.exec(printed);
      if (api !== null) resolve(api[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${demoCommand} exited (${code}) before it named its API:\n${printed}`)));
  });
  return { base, dataDir, printed, process: child };
}

/** Ctrl+C, as the demo says to stop it. */
async function stopDemo(demo: Demo | undefined): Promise<void> {
  if (demo === undefined || demo.process.exitCode !== null) return;
  const exited = once(demo.process, 'exit');
  process.kill(-demo.process.pid!, 'SIGINT');
  await exited;
}

/** A README command run by the shell, its `localhost:3000` being the demo. */
const run = (readmeCommand: string, demo: Demo, env: Record<string, string> = {}) =>
  runCommand('sh', ['-c', readmeCommand.replaceAll('http://localhost:3000', demo.base)], { env: { DATA_DIR: demo.dataDir, ...env } });

let cafe: Demo | undefined;
let moe: Demo | undefined;

beforeAll(async () => {
  [cafe, moe] = await Promise.all([startDemo(command('npm run demo')), startDemo(command('npm run demo -- --profile moe'))]);
}, 90_000);

afterAll(async () => {
  await Promise.all([stopDemo(cafe), stopDemo(moe)]);
}, 30_000);

describe("the README's commands", () => {
  it('are each run below or named with why not', () => {
    const run = readmeCommands().filter((candidate) => NOT_RUN[candidate] === undefined);
    expect(run.sort()).toEqual(
      [
        'npm run demo',
        "curl -s 'http://localhost:3000/catalog/ongoing-series?page=2' | head -c 600",
        'npm run demo -- --profile moe',
        "curl -s 'http://localhost:3000/catalog/search?q=renegade'",
        "curl -s 'http://localhost:3000/catalog/series/renegade-immortal'",
        "curl -s 'http://localhost:3000/catalog/episode/renegade-immortal-episode-124-subtitle-indonesia'",
        'curl -s http://localhost:3000/feeds/series/renegade-immortal.atom',
        'npm run reports',
        'npm run reports -- --category bug --severity high --from 2026-11-01 --json',
        'npm run reports -- show <id>',
      ].sort(),
    );
    expect(Object.keys(NOT_RUN).filter((named) => !readmeCommands().includes(named))).toEqual([]);
  });

  it("start the demo on the simulator's profile each names, and its quick-start curl reads page 2 of the ongoing series", async () => {
    expect(cafe!.printed).toMatch(/\(theme profile cafe\)/);
    expect(moe!.printed).toMatch(/\(theme profile moe\)/);
    for (const demo of [cafe!, moe!]) {
      const { exitCode, stdout } = await run(command('/catalog/ongoing-series?page=2'), demo);
      expect(exitCode).toBe(0);
      expect(stdout).toHaveLength(600);
      expect(stdout.startsWith('{"status":"success","data":{"series":[{"title":"')).toBe(true);
    }
  });

  it('go from a search to a series, one of its episodes and its feed, as the README follows them', async () => {
    const json = async (part: string) =>
      JSON.parse((await run(command(part), cafe!)).stdout) as { status: string; data: Record<string, unknown> };
    const search = await json('/catalog/search?q=renegade');
    expect((search.data['results'] as { slug: string }[])[0]!.slug).toBe('renegade-immortal');
    const series = await json('/catalog/series/renegade-immortal');
    expect({ status: series.status, slug: series.data['slug'] }).toEqual({ status: 'success', slug: 'renegade-immortal' });
    const episode = await json('/catalog/episode/renegade-immortal-episode-124');
    expect({ status: episode.status, slug: episode.data['slug'] }).toEqual({
      status: 'success',
      slug: 'renegade-immortal-episode-124-subtitle-indonesia',
    });
    expect((episode.data['servers'] as { url: string }[])[0]!.url).toMatch(/^https?:\/\//);
    const feed = await run(command('/feeds/series/renegade-immortal.atom'), cafe!);
    expect(feed.stdout).toMatch(/^<\?xml version="1\.0" encoding="utf-8"\?>\s*<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"/i);
    expect(feed.stdout).toContain('renegade-immortal-episode-124-subtitle-indonesia');
  });

  it('list, filter and show the reports the service took with the reports CLI', async () => {
    const posted = await fetch(`${cafe!.base}/api/reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        category: 'bug',
        severity: 'high',
        endpoint: '/catalog/home',
        title: 'Halaman utama kosong',
        description: 'Daftar rilis terbaru tidak muncul.',
      }),
    });
    expect(posted.status).toBe(201);
    const { id } = ((await posted.json()) as { data: { id: string } }).data;

    // Three programs that only read the reports file: side by side.
    const [table, filtered, shown] = await Promise.all([
      run(command('npm run reports'), cafe!),
      run(command('npm run reports -- --category'), cafe!),
      run(command('npm run reports -- show').replace('<id>', id), cafe!),
    ]);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toContain(id);
    expect(table.stdout).toContain('Halaman utama kosong');

    expect(filtered.exitCode).toBe(0);
    const listed = JSON.parse(filtered.stdout.slice(filtered.stdout.indexOf('['))) as { id: string; title: string }[];
    expect(listed.map(({ id: listedId, title }) => ({ id: listedId, title }))).toEqual([{ id, title: 'Halaman utama kosong' }]);

    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain('Daftar rilis terbaru tidak muncul.');
  }, 60_000);

  it('name every file the service wrote in its DATA_DIR', async () => {
    // The status probe and the report above have written by now, and the curls above fetched pages.
    const files = readdirSync(cafe!.dataDir).filter((name) => !name.startsWith('.') && !/-(wal|shm|journal)$/.test(name));
    expect(files).toEqual(expect.arrayContaining(['answers.sqlite', 'catalog.sqlite', 'reports.jsonl']));
    expect(files.filter((name) => !README.includes(name))).toEqual([]);
  });
});

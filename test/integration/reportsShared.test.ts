import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/config/logger.js';
import { StoredReport } from '../../src/reports/schema.js';
import { startService, type ServiceProcess } from '../bench/processes.js';
import { startRedisServer, type RedisServer } from '../helpers/redisServer.js';
import { builtPath } from '../../scripts/programBuild.mjs';
import { startSimulator, type Simulator } from '../simulator/server.js';

// Reports as one service across instances: two instances on one real redis-server, each
// with its own DATA_DIR and no filesystem shared. A report sent through either is confirmed and
// listed by both; an acknowledged report survives kill -9 of the instance that took it and the
// loss of Redis (killed, restarted empty), and is then listed once, its line intact.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'reports-shared-test-token-0123456789';
const CLIENT = '203.0.113.7';

let redis: RedisServer;
let simulator: Simulator;
beforeAll(async () => {
  [redis, simulator] = await Promise.all([startRedisServer(), startSimulator()]);
});
afterAll(async () => {
  await Promise.all([redis.stop(), simulator.close()]);
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const env = (dataDir: string): Record<string, string> => ({
  UPSTREAM_BASE_URLS: simulator.origin,
  DATA_DIR: dataDir,
  REDIS_URL: redis.url,
  ADMIN_TOKEN: TOKEN,
  REPORT_RATE_LIMIT_MAX: '10000',
  TRUST_PROXY: '1',
  SOLVER: 'off',
  LOG_LEVEL: 'silent',
  CRAWL_ENABLED: 'false',
});
const tempDataDir = () => mkdtempSync(join(tmpdir(), 'reports-shared-'));

/** An instance in this process, listening on a loopback port. */
async function inProcess(dataDir: string): Promise<string> {
  const app = createApp({ config: loadConfig(env(dataDir)), logger: createLogger('silent') });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await redisIs(base, 'up');
  return base;
}

/** An instance in a child process (src/main.ts), which the test can kill -9. */
async function child(dataDir: string): Promise<ServiceProcess> {
  const service = await startService({ ...env(dataDir), LOG_LEVEL: 'info' });
  await redisIs(service.origin, 'up');
  return service;
}

async function redisIs(base: string, state: 'up' | 'down'): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(25)) {
    const body = (await (await fetch(`${base}/health/upstream`)).json()) as { redis: string };
    if (body.redis === state) return;
  }
  throw new Error(`redis never became ${state} on ${base}`);
}

async function send(base: string, n: number): Promise<string> {
  const response = await fetch(`${base}/api/reports`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': CLIENT },
    body: JSON.stringify({
      category: 'bug',
      endpoint: '/catalog/home',
      title: `Laporan ${n}`,
      description: `Isi laporan ${n}`,
      severity: 'low',
    }),
    signal: AbortSignal.timeout(5_000),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function confirmation(base: string, id: string) {
  const response = await fetch(`${base}/report/sent/${id}`, { headers: { Accept: 'text/html' } });
  return { status: response.status, text: await response.text() };
}

async function listed(base: string): Promise<{ reports: StoredReport[]; skippedLines: number }> {
  const response = await fetch(`${base}/admin/reports`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { reports: StoredReport[] }; meta: { skippedLines: number } };
  return { reports: body.data.reports, skippedLines: body.meta.skippedLines };
}

/** Every line of a DATA_DIR's reports file, each of which must be a whole report. */
function fileReports(dataDir: string): StoredReport[] {
  const text = readFileSync(join(dataDir, 'reports.jsonl'), 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => StoredReport.parse(JSON.parse(line)));
}

/** `npm run reports -- --json` on one instance's DATA_DIR. */
async function cliList(dataDir: string): Promise<StoredReport[]> {
  const cli = spawn(process.execPath, [await builtPath('src/reportsMain.ts'), '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...env(dataDir) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  cli.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => cli.once('exit', (exitCode) => resolve(exitCode)));
  expect(code).toBe(0);
  return JSON.parse(out) as StoredReport[];
}

const sortedIds = (reports: readonly { id: string }[]) => reports.map((report) => report.id).sort();

describe('reports across instances', () => {
  it('confirms a report sent through one instance on the other, and lists every report on both', async () => {
    const dataDirs = [tempDataDir(), tempDataDir()];
    const bases = await Promise.all(dataDirs.map(inProcess));
    const ids: string[] = [];
    for (let n = 0; n < 20; n++) {
      const id = await send(bases[n % 2] as string, n);
      ids.push(id);
      const confirmed = await confirmation(bases[(n + 1) % 2] as string, id);
      expect(confirmed.status).toBe(200);
      expect(confirmed.text).toContain('Laporan Terkirim!');
      expect(confirmed.text).toContain(id);
    }
    expect((await confirmation(bases[0] as string, '00000000-0000-4000-8000-000000000000')).status).toBe(404);

    for (const base of bases) {
      const { reports, skippedLines } = await listed(base);
      expect(sortedIds(reports)).toEqual([...ids].sort());
      expect(skippedLines).toBe(0);
      // One salt for the whole service: one sender, one hash, whichever instance took the report.
      expect(new Set(reports.map((report) => report.ipHash)).size).toBe(1);
    }
    // No filesystem shared: each file holds what its own instance took.
    expect(sortedIds(fileReports(dataDirs[0] as string))).toEqual(ids.filter((_, n) => n % 2 === 0).sort());
    expect(sortedIds(fileReports(dataDirs[1] as string))).toEqual(ids.filter((_, n) => n % 2 === 1).sort());
    expect(sortedIds(await cliList(dataDirs[1] as string))).toEqual([...ids].sort());
  }, 60_000);

  it('keeps every acknowledged report through kill -9 of its instance and a Redis restart, each listed once and whole', async () => {
    const dataDirs = [tempDataDir(), tempDataDir()];
    // The instance killed and started again is a process; the other one only has to be another instance.
    const [first, other] = await Promise.all([child(dataDirs[0] as string), inProcess(dataDirs[1] as string)]);
    const acknowledged: string[] = [];

    // A burst from four senders at once into the first instance, killed while it goes on.
    let n = 0;
    const sender = async () => {
      for (;;) {
        try {
          acknowledged.push(await send(first.origin, n++));
        } catch {
          return;
        }
      }
    };
    const burst = Promise.all([sender(), sender(), sender(), sender()]);
    while (acknowledged.length < 40) await sleep(5);
    process.kill(first.pid, 'SIGKILL');
    await burst;
    const restarted = await child(dataDirs[0] as string);
    cleanups.push(() => restarted.stop());

    // Redis lost: killed, and started again empty. Reports taken meanwhile are kept on disk only.
    await redis.kill();
    await Promise.all([redisIs(restarted.origin, 'down'), redisIs(other, 'down')]);
    for (let k = 0; k < 3; k++) acknowledged.push(await send(restarted.origin, 1000 + k), await send(other, 2000 + k));
    await redis.restart();
    await Promise.all([redisIs(restarted.origin, 'up'), redisIs(other, 'up')]);

    // The shared view heals from each instance's file.
    const expected = [...acknowledged].sort();
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(50)) {
      const [onFirst, onOther] = await Promise.all([listed(restarted.origin), listed(other)]);
      if (onFirst.reports.length >= expected.length && onOther.reports.length >= expected.length) break;
    }
    for (const base of [restarted.origin, other]) {
      const { reports, skippedLines } = await listed(base);
      const ids = sortedIds(reports);
      expect(ids).toEqual([...new Set(ids)]);
      expect(ids).toEqual(expect.arrayContaining(expected));
      expect(skippedLines).toBe(0);
      for (const id of acknowledged) expect((await confirmation(base, id)).status).toBe(200);
    }
    // Every line of both files is a whole report, and each report is in one file once.
    const inFiles = sortedIds([...fileReports(dataDirs[0] as string), ...fileReports(dataDirs[1] as string)]);
    expect(inFiles).toEqual([...new Set(inFiles)]);
    expect(inFiles).toEqual(expect.arrayContaining(expected));
    // The listing is the files' reports: nothing taken was lost on the way to Redis, nothing made up.
    expect(sortedIds((await listed(restarted.origin)).reports)).toEqual(inFiles);
  }, 90_000);
});

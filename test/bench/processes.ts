import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '../helpers/freePort.js';
import { builtPath } from '../../scripts/programBuild.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  origin: string;
  pid: number;
  /** The service's JSON log lines so far. */
  logs(): Array<Record<string, unknown>>;
  rssMB(): number;
  stop(): Promise<void>;
}

/** The service stopped before it listened: its exit code and what it wrote to stderr. */
export class ServiceExitedError extends Error {
  constructor(
    readonly exitCode: number | null,
    readonly stderr: string,
    logFile: string,
  ) {
    super(`the service exited (code ${exitCode}) before listening; see ${logFile}\n${stderr}`);
  }
}

/** The program a child service runs: src/main.ts, or a test's own start of the app (test/helpers/serviceChild.ts), with its arguments. */
interface ServiceProgram {
  program?: string;
  args?: readonly string[];
}

/**
 * The real service in a child process (src/main.ts, built as `npm start` runs it), so that load
 * generation in the bench process does not share its event loop. It logs to a file, as it would to a log collector,
 * so that the bench process spends no time reading its log stream during a load run. Its stderr
 * goes to a file too, so that a start that fails can be read (ServiceExitedError).
 */
export async function startService(
  env: Record<string, string>,
  { program = 'src/main.ts', args = [] }: ServiceProgram = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'catalog-bench-'));
  const logFile = join(dir, 'service.log');
  const errorFile = join(dir, 'service.stderr');
  // The same V8 flags as `npm start` and the Docker image. No background crawl unless a
  // section asks for one: its upstream fetches would share the machine with the load measured.
  const child = spawn(process.execPath, ['--max-old-space-size=160', '--single-threaded-gc', await builtPath(program), ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      DATA_DIR: dir,
      SOLVER: 'off',
      CRAWL_ENABLED: 'false',
      ...env,
    },
    stdio: ['ignore', openSync(logFile, 'w'), openSync(errorFile, 'w')],
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const logs = () =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  while (!logs().some((entry) => entry.msg === 'listening')) {
    if (exited) throw new ServiceExitedError(child.exitCode, readFileSync(errorFile, 'utf8'), logFile);
    await sleep(50);
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    logs,
    rssMB: () => rssOf(child.pid!),
    stop: () => stopChild(child),
  };
}

/** A figure of a Prometheus text exposition (the service's /metrics); NaN when it has none. */
export const figureIn = (metrics: string, name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);

/** The service's /metrics, as text. */
export const metricsOf = async (service: ServiceProcess): Promise<string> => (await fetch(`${service.origin}/metrics`)).text();

/** A figure of the service's /metrics; NaN when it has none. */
export const metric = async (service: ServiceProcess, name: string): Promise<number> => figureIn(await metricsOf(service), name);

/** A bare node:http server sending one pre-serialized body: the ceiling to compare the cache hit with. */
export async function startBareServer(body: Buffer): Promise<{ origin: string; pid: number; stop(): Promise<void> }> {
  // The body goes through a file: an environment variable cannot hold a multi-megabyte one (E2BIG).
  const bodyFile = join(mkdtempSync(join(tmpdir(), 'catalog-bare-')), 'body');
  writeFileSync(bodyFile, body);
  const script = `
    const body = require('node:fs').readFileSync(process.env.BODY_FILE);
    require('node:http').createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
      res.end(body);
    }).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));`;
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, BODY_FILE: bodyFile, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  return { origin: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child) };
}

/** The upstream simulator in a child process: `hold()` freezes it (SIGSTOP), so that whatever waits on its pages waits, using no CPU, until `release()`. */
export interface SimulatorProcess {
  origin: string;
  hold(): void;
  release(): void;
  stop(): Promise<void>;
}

/**
 * The upstream simulator in a child process (test/simulator/main.ts), for a section where the pages
 * it renders must not take CPU from the load generator in this process.
 */
export async function startSimulatorProcess(args: string[]): Promise<SimulatorProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/simulator/main.ts', ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const origin = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  return {
    origin,
    hold: () => child.kill('SIGSTOP'),
    release: () => child.kill('SIGCONT'),
    stop: () => {
      // A held process would not act on SIGTERM until it runs again.
      child.kill('SIGCONT');
      return stopChild(child);
    },
  };
}

/** CPU time (user + system, ms) a process has used so far: what a request costs there, whatever else the machine runs. */
export function cpuMs(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second on Linux), after the parenthesised name.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((row) => row.startsWith('VmRSS:'));
  return Math.round(Number(/\d+/.exec(line ?? '')?.[0] ?? 0) / 1024);
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    // A child killed by a signal (kill -9 in a test) has no exit code, only a signal code.
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

import { spawn, type ChildProcess } from 'node:child_process';
import { get, type IncomingMessage } from 'node:http';
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

/** An answer as a server sent it: its status line, its header lines as received (names and values in turn, in order) and its body. */
export interface SentAnswer {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: Buffer;
}

/** What `url` answers a GET with `headers`, read as it came over the wire. */
export async function sentAnswer(url: string, headers: Record<string, string> = {}): Promise<SentAnswer> {
  const res = await new Promise<IncomingMessage>((resolve, reject) => get(url, { headers }, resolve).on('error', reject));
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return { status: res.statusCode!, statusMessage: res.statusMessage!, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) };
}

// Node writes these itself, after the headers a response sets and in this order; the bare server's
// Node writes them too, with the same keep-alive timeout, so that they stay where they were received.
const WRITTEN_BY_NODE = new Set(['date', 'connection', 'keep-alive']);

/** The header lines of `answer` that Node did not write itself, names and values in turn. */
const setHeaders = (answer: SentAnswer): string[] =>
  answer.rawHeaders.flatMap((value, index, raw) =>
    index % 2 === 0 && !WRITTEN_BY_NODE.has(value.toLowerCase()) ? [value, raw[index + 1]!] : [],
  );

/** The Keep-Alive timeout (ms) `answer` announced; Node's own default when it announced none. */
function keepAliveMsOf(answer: SentAnswer): number {
  const at = answer.rawHeaders.findIndex((name, index) => index % 2 === 0 && name.toLowerCase() === 'keep-alive');
  const seconds = /timeout=(\d+)/.exec(answer.rawHeaders[at + 1] ?? '')?.[1];
  return seconds === undefined ? 5_000 : Number(seconds) * 1000;
}

/**
 * A bare node:http server sending `answer` as it was received, the ceiling to compare the service
 * with: the same status line, the same header lines in the same order (Date aside, which Node
 * writes with the time it sends) and the same body, prepared once and written as they are.
 */
export async function startBareServer(answer: SentAnswer): Promise<{ origin: string; pid: number; stop(): Promise<void> }> {
  // The answer goes through files: an environment variable cannot hold a multi-megabyte body (E2BIG).
  const dir = mkdtempSync(join(tmpdir(), 'catalog-bare-'));
  writeFileSync(join(dir, 'body'), answer.body);
  writeFileSync(
    join(dir, 'head.json'),
    JSON.stringify({ status: answer.status, statusMessage: answer.statusMessage, headers: setHeaders(answer) }),
  );
  const script = `
    const { readFileSync } = require('node:fs');
    const body = readFileSync(process.env.BARE_DIR + '/body');
    const { status, statusMessage, headers } = JSON.parse(readFileSync(process.env.BARE_DIR + '/head.json', 'utf8'));
    const server = require('node:http').createServer((req, res) => {
      res.writeHead(status, statusMessage, headers);
      res.end(body);
    });
    server.keepAliveTimeout = Number(process.env.KEEP_ALIVE_MS);
    server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));`;
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, BARE_DIR: dir, KEEP_ALIVE_MS: String(keepAliveMsOf(answer)), PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  const origin = `http://127.0.0.1:${port}`;
  const sent = await sentAnswer(origin);
  const [expected, got] = [headLines(answer).join('\n'), headLines(sent).join('\n')];
  if (got !== expected || !sent.body.equals(answer.body)) {
    await stopChild(child);
    throw new Error(
      `the bare server does not send the answer it copies:\n${expected}\n(${answer.body.length} bytes)\nbut\n${got}\n(${sent.body.length} bytes)`,
    );
  }
  return { origin, pid: child.pid!, stop: () => stopChild(child) };
}

/** The head of `answer` as lines, the value of its Date masked: what two servers sending the same head have in common. */
function headLines(answer: SentAnswer): string[] {
  const lines = [`${answer.status} ${answer.statusMessage}`];
  for (let index = 0; index < answer.rawHeaders.length; index += 2) {
    const name = answer.rawHeaders[index]!;
    lines.push(`${name}: ${name.toLowerCase() === 'date' ? '…' : answer.rawHeaders[index + 1]}`);
  }
  return lines;
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

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './freePort.js';

// A real redis-server (Debian's package) on a free loopback port, in its own temporary directory,
// without persistence. Tests kill and restart it on the same port to see what a Redis outage does.

const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? 'redis-server';
const START_TIMEOUT_MS = 5_000;

export interface RedisServer {
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  /** SIGKILL: the server vanishes at once, as a crashed or unreachable Redis does. */
  kill(): Promise<void>;
  /** SIGSTOP: the server keeps its connections and accepts new ones, but answers nothing, as a hung Redis does. */
  freeze(): void;
  /** SIGCONT: a frozen server answers again, everything it was sent meanwhile included. */
  thaw(): void;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startRedisServer(): Promise<RedisServer> {
  if (spawnSync(REDIS_SERVER, ['--version']).error !== undefined)
    throw new Error('redis-server is not installed: run `apt-get install -y redis-server` (Debian), or set REDIS_SERVER_PATH');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'redis-test-'));
  let child: ChildProcess | undefined;

  async function launch(): Promise<void> {
    const started = spawn(REDIS_SERVER, ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: 'ignore',
    });
    child = started;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await accepts(port))) {
      if (started.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
      await sleep(20);
    }
  }

  async function kill(): Promise<void> {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
  }

  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    restart: launch,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { execFileSync } from 'node:child_process';
import { constants, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, droppedLogLines } from '../../src/config/logger.js';
import { createMetrics } from '../../src/metrics.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads whole lines from a non-blocking fd until `count` have come or `ms` have passed. */
async function readLines(fd: number, count: number, ms: number): Promise<string[]> {
  const chunk = Buffer.alloc(64 * 1024);
  let text = '';
  const deadline = Date.now() + ms;
  while (text.split('\n').length - 1 < count && Date.now() < deadline) {
    try {
      text += chunk.toString('utf8', 0, readSync(fd, chunk));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      await pause(10);
    }
  }
  return text.split('\n').slice(0, -1);
}

describe('createLogger', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('drops and counts the lines stdout does not take past its bound, and writes every other line whole and in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logger-'));
    dirs.push(dir);
    const fifo = join(dir, 'stdout');
    execFileSync('mkfifo', [fifo]);
    // Nobody reads the pipe while the lines are logged: it fills (64 KB), then the bound (256 KB).
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    const logger = createLogger('info', { fd, maxBufferBytes: 256 * 1024 });
    const droppedBefore = droppedLogLines();
    const logged = 4000;
    const padding = 'x'.repeat(200);
    for (let n = 0; n < logged; n++) {
      logger.info({ n, padding }, 'line');
      if (n % 100 === 99) await nextTurn();
    }
    // Hands the last batch over (sonic-boom answers a flush at once: it keeps no minimum length).
    await new Promise((resolve) => logger.flush(resolve));
    const dropped = droppedLogLines() - droppedBefore;
    // ~280 bytes a line: about 1,150 lines fit in the pipe and the bound; batches of 64 KB are dropped whole.
    expect(dropped).toBeGreaterThan(2000);
    expect(dropped).toBeLessThan(3500);
    expect(await createMetrics().registry.getSingleMetricAsString('log_lines_dropped_total')).toContain(
      `\nlog_lines_dropped_total ${droppedLogLines()}`,
    );

    const lines = await readLines(fd, logged - dropped, 10_000);
    expect(lines).toHaveLength(logged - dropped);
    const numbers = lines.map((line) => (JSON.parse(line) as { n: number; padding: string }).n);
    // The first batches' lines were taken before the bound was reached; later ones are whole batches.
    expect(numbers.slice(0, 200)).toEqual([...Array(200).keys()]);
    expect(numbers.every((n, index) => index === 0 || n > numbers[index - 1]!)).toBe(true);
    expect(lines.every((line) => (JSON.parse(line) as { padding: string }).padding === padding)).toBe(true);
  });
});

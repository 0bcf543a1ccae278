import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { batchPerTurn, type LogDestination } from '../../../src/config/logBatch.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A destination that records what it is handed, and when it is flushed. */
function recordingDestination() {
  const events: string[] = [];
  const destination: LogDestination = {
    write: (chunk) => events.push(`write ${chunk}`) > 0,
    flush: (callback) => {
      events.push('flush');
      callback();
    },
    flushSync: () => void events.push('flushSync'),
  };
  return { destination, events };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchPerTurn', () => {
  it('hands the lines of one turn to the destination as one write, in order, after the turn', async () => {
    const { destination, events } = recordingDestination();
    const batch = batchPerTurn(destination);
    batch.write('a\n');
    batch.write('b\n');
    expect(events).toEqual([]);
    await nextTurn();
    batch.write('c\n');
    await nextTurn();
    expect(events).toEqual(['write a\nb\n', 'write c\n']);
  });

  it('hands the waiting lines over before flushing, and writes nothing twice', async () => {
    const { destination, events } = recordingDestination();
    const batch = batchPerTurn(destination);
    batch.write('a\n');
    await new Promise((resolve) => batch.flush(resolve));
    batch.write('b\n');
    batch.flushSync();
    await nextTurn();
    expect(events).toEqual(['write a\n', 'flush', 'write b\n', 'flushSync']);
  });

  it('writes the lines of the last turn when the process exits in it', () => {
    const script = `
      import { createLogger } from './src/config/logger.ts';
      const logger = createLogger('info');
      logger.info({ n: 1 }, 'first');
      logger.info({ n: 2 }, 'second');
      process.exit(0);`;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    const lines = output.trim().split('\n').map((line) => JSON.parse(line) as { msg: string; n: number });
    expect(lines.map(({ msg, n }) => [msg, n])).toEqual([['first', 1], ['second', 2]]);
  });
});

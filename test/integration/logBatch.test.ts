import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchLines, LOG_BATCH_MS, type LogDestination } from '../../src/config/logBatch.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A destination that records what it is handed, and when it is flushed. */
function recordingDestination() {
  const events: string[] = [];
  const destination: LogDestination = {
    write: (chunk) => events.push(`write ${chunk.toString('utf8')}`) > 0,
    flush: (callback) => {
      events.push('flush');
      callback();
    },
    flushSync: () => void events.push('flushSync'),
  };
  return { destination, events };
}

describe('batchLines', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands the lines of a batch to the destination as one write, in order, once its first line is LOG_BATCH_MS old', () => {
    const { destination, events } = recordingDestination();
    const batch = batchLines(destination);
    batch.write('a\n');
    vi.advanceTimersByTime(LOG_BATCH_MS - 1);
    batch.write('b\n');
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(['write a\nb\n']);
    batch.write('c\n');
    vi.advanceTimersByTime(LOG_BATCH_MS);
    expect(events).toEqual(['write a\nb\n', 'write c\n']);
  });

  it('hands a full batch over at once, and a line longer than a batch alone, keeping the order', () => {
    const { destination, events } = recordingDestination();
    // A line may take 3 bytes per character in UTF-8: one of 4 characters fills 12 bytes.
    const batch = batchLines(destination, { batchBytes: 12 });
    batch.write('abc\n');
    expect(events).toEqual([]);
    batch.write('dé\n');
    expect(events).toEqual(['write abc\n']);
    batch.write('a line longer than the batch\n');
    expect(events).toEqual(['write abc\n', 'write dé\n', 'write a line longer than the batch\n']);
    vi.advanceTimersByTime(LOG_BATCH_MS);
    expect(events).toHaveLength(3);
  });

  it('hands the waiting lines over before flushing, and writes nothing twice', () => {
    const { destination, events } = recordingDestination();
    const batch = batchLines(destination);
    batch.write('a\n');
    batch.flush(() => events.push('flushed'));
    batch.write('b\n');
    batch.flushSync();
    vi.advanceTimersByTime(LOG_BATCH_MS);
    expect(events).toEqual(['write a\n', 'flush', 'flushed', 'write b\n', 'flushSync']);
  });

  it('writes the waiting lines when the process exits', () => {
    const script = `
      import { createLogger } from './src/config/logger.ts';
      const logger = createLogger('info');
      logger.info({ n: 1 }, 'first');
      logger.info({ n: 2 }, 'second');
      process.exit(0);`;
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const lines = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; n: number });
    expect(lines.map(({ msg, n }) => [msg, n])).toEqual([
      ['first', 1],
      ['second', 2],
    ]);
  });
});

import { pino, type Logger } from 'pino';
import { batchLines, type LogDestination } from './logBatch.js';
import type { Config } from './schema.js';

export type { Logger };

// While stdout does not take the lines (a stalled log collector, a full pipe), they wait in memory.
// Past this many bytes a batch's lines are dropped and counted rather than held without bound: at a
// full cache-hit load (~10 MB of lines a second) it holds a second and a half of them.
export const LOG_BUFFER_MAX_BYTES = 16 * 1024 * 1024;

let droppedLines = 0;

/** Log lines dropped since the process started because stdout did not take them in time. */
export function droppedLogLines(): number {
  return droppedLines;
}

const NEWLINE = 0x0a;

function lineCount(chunk: Buffer): number {
  let lines = 0;
  for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) lines++;
  return lines;
}

/**
 * One structured JSON logger for the process; request lines carry the request id. It writes
 * asynchronously, in batches of lines encoded once into bytes (logBatch.ts): under load a blocking
 * write, or a destination write per line, would cost more than the line itself. Lines waiting for
 * stdout are bounded by `maxBufferBytes` (see `droppedLogLines`). main.ts flushes it on shutdown,
 * and the waiting lines are written on exit.
 */
export function createLogger(level: Config['LOG_LEVEL'], { fd = 1, maxBufferBytes = LOG_BUFFER_MAX_BYTES } = {}): Logger {
  const destination = pino.destination({ dest: fd, sync: false, maxLength: maxBufferBytes, contentMode: 'buffer' });
  destination.on('drop', (chunk: Buffer) => {
    droppedLines += lineCount(chunk);
  });
  // sonic-boom's types name string chunks only; in buffer mode it takes the batches' Buffers as they are.
  return pino({ level, base: { service: 'donghua-catalog-api' } }, batchLines(destination as unknown as LogDestination));
}

import type { DestinationStream } from 'pino';

/** What the batch needs of pino's asynchronous destination (sonic-boom, in buffer mode). */
export interface LogDestination {
  write(chunk: Buffer): boolean;
  flush(callback: (error?: Error) => void): void;
  flushSync(): void;
}

export type BatchedDestination = DestinationStream & Pick<LogDestination, 'flush' | 'flushSync'>;

/**
 * How long a line may wait for the lines after it before it is handed to the destination.
 * @internal exported for the tests: the log batch tests advance fake timers by it.
 */
export const LOG_BATCH_MS = 20;
/** A batch is handed over when this full, however young: ~230 request lines. */
const BATCH_BYTES = 64 * 1024;
/** UTF-8 takes at most three bytes for one UTF-16 unit. */
const MAX_UTF8_BYTES_PER_UNIT = 3;

// Batches holding lines not yet handed over; handed over synchronously if the process exits first.
const waiting = new Set<BatchedDestination>();
let exitHooked = false;

function handOverOnExit(): void {
  for (const batch of waiting) batch.flushSync();
}

/**
 * Hands pino's lines to its destination in batches of up to 64 KB, at most LOG_BATCH_MS after the
 * first line of a batch, encoded once into the batch's buffer. Under load a write per line, or a
 * string handed to sonic-boom (which measures and re-encodes its pending text on every write and
 * release), cost more than pino's serialization of the line. Lines keep their order; `flush` and
 * `flushSync` hand over the waiting lines first, and so does the process's exit.
 */
export function batchLines(destination: LogDestination, { intervalMs = LOG_BATCH_MS, batchBytes = BATCH_BYTES } = {}): BatchedDestination {
  // One buffer per logger, allocated at its first line (a silent logger holds none), reused by every batch.
  let buffer: Buffer | undefined;
  let used = 0;
  // Set while a batch is open: from its first line until it is handed over.
  let timer: NodeJS.Timeout | undefined;
  const handOver = () => {
    clearTimeout(timer);
    timer = undefined;
    waiting.delete(batch);
    if (buffer === undefined || used === 0) return;
    // The destination keeps the chunk until it is written, so it gets a copy of the batch's bytes.
    const chunk = Buffer.from(buffer.subarray(0, used));
    used = 0;
    destination.write(chunk);
  };
  const batch: BatchedDestination = {
    write(line: string) {
      const room = line.length * MAX_UTF8_BYTES_PER_UNIT;
      if (used + room > batchBytes) {
        handOver();
        if (room > batchBytes) {
          destination.write(Buffer.from(line));
          return;
        }
      }
      buffer ??= Buffer.allocUnsafeSlow(batchBytes);
      if (timer === undefined) {
        waiting.add(batch);
        timer = setTimeout(handOver, intervalMs);
        // Waiting lines never keep the process alive: its exit hands them over.
        timer.unref();
      }
      used += buffer.write(line, used);
    },
    flush(callback) {
      handOver();
      destination.flush(callback);
    },
    flushSync() {
      handOver();
      destination.flushSync();
    },
  };
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', handOverOnExit);
  }
  return batch;
}

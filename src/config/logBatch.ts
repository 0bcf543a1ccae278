import type { DestinationStream } from 'pino';

/** What the batch needs of pino's asynchronous destination (sonic-boom). */
export interface LogDestination {
  write(chunk: string): boolean;
  flush(callback: (error?: Error) => void): void;
  flushSync(): void;
}

export type BatchedDestination = DestinationStream & Pick<LogDestination, 'flush' | 'flushSync'>;

// Batches holding lines of the current turn; handed over synchronously if the process exits first.
const waiting = new Set<BatchedDestination>();
let exitHooked = false;

function handOverOnExit(): void {
  for (const batch of waiting) batch.flushSync();
}

/**
 * Hands pino's lines to its destination once per event-loop turn, as one string. sonic-boom
 * measures its whole pending buffer again on every write (Buffer.byteLength of a growing
 * concatenated string, which flattens it), so under load a write per line cost more than pino's
 * serialization of the line. Lines keep their order; `flush` and `flushSync` hand over the
 * current turn's lines first, and so does the process's exit.
 */
export function batchPerTurn(destination: LogDestination): BatchedDestination {
  let lines = '';
  const handOver = () => {
    waiting.delete(batch);
    if (lines === '') return;
    const chunk = lines;
    lines = '';
    destination.write(chunk);
  };
  const batch: BatchedDestination = {
    write(line: string) {
      if (lines === '') {
        waiting.add(batch);
        setImmediate(handOver);
      }
      lines += line;
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

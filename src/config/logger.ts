import { pino, type Logger } from 'pino';
import { batchPerTurn } from './logBatch.js';
import type { Config } from './schema.js';

export type { Logger };

/**
 * One structured JSON logger for the process; request lines carry the request id. It writes
 * asynchronously, one write per event-loop turn with the turn's lines (logBatch.ts): under load a
 * blocking write, or a destination write per line, would cost more than the line itself. main.ts
 * flushes it on shutdown, and the lines of the last turn are written on exit.
 */
export function createLogger(level: Config['LOG_LEVEL']): Logger {
  return pino({ level, base: { service: 'donghua-catalog-api' } }, batchPerTurn(pino.destination({ dest: 1, sync: false })));
}

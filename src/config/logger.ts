import { pino, type Logger } from 'pino';
import type { Config } from './schema.js';

export type { Logger };

/**
 * One structured JSON logger for the process; request lines carry the request id. It writes
 * asynchronously: under load, lines written while a write is under way go out together instead
 * of one blocking write per request. main.ts flushes it on shutdown.
 */
export function createLogger(level: Config['LOG_LEVEL']): Logger {
  return pino({ level, base: { service: 'donghua-catalog-api' } }, pino.destination({ dest: 1, sync: false }));
}

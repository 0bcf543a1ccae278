import { pino, type Logger } from 'pino';
import type { Config } from './schema.js';

export type { Logger };

/** One structured JSON logger for the process; request lines carry the request id. */
export function createLogger(level: Config['LOG_LEVEL']): Logger {
  return pino({ level, base: { service: 'donghua-catalog-api' } });
}

import type { StoredReport } from './schema.js';

/** The reports' JSON lines file in DATA_DIR. */
export const REPORTS_FILE = 'reports.jsonl';

/**
 * The reports of the whole service. Each instance's DATA_DIR JSON lines are the durable record; a
 * shared view (Redis) lets every instance confirm and list the reports every other one took.
 */
export interface SharedReports {
  /** Resolves once the report is on this instance's disk (written and fsynced): then it may be acknowledged. */
  add(report: StoredReport): Promise<void>;
  /** Whether a report with this id was taken, by any instance; costs the same with ten reports or a million. */
  has: (id: string) => Promise<boolean>;
  /** Every readable report, with the number of unreadable lines skipped in this instance's file. */
  list(): Promise<{ reports: StoredReport[]; skippedLines: number }>;
  /** The salt of the IP hashes, one for the whole service, so one sender's reports group together on any instance. */
  ipHashSalt(): Promise<Buffer>;
}

/** Where the stores tell of skipped lines and failed writes (the service's pino logger, the CLI's stderr). */
export interface ReportsLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

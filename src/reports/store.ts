import { createJsonLinesFile } from '../files/jsonLinesFile.js';
import { StoredReport } from './schema.js';

export interface ReportStore {
  /** Resolves once the record is on disk (written and fsynced). */
  append(record: StoredReport): Promise<void>;
  /** Every readable record, oldest first; unreadable lines are skipped with a warning. */
  readAll(): Promise<{ reports: StoredReport[]; skippedLines: number }>;
}

/** Where the store tells of skipped lines and failed writes (the service's pino logger, the CLI's stderr). */
export interface StoreLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The reports as JSON lines (src/files/jsonLinesFile.ts), readable by their owner only. */
export function createReportStore(filePath: string, logger: StoreLog): ReportStore {
  let skippedLines = 0;
  const file = createJsonLinesFile(filePath, StoredReport, {
    mode: 0o600,
    onUnreadable: (line) => {
      skippedLines++;
      logger.warn({ file: filePath, line }, 'skipping an unreadable report line (torn by a crash?)');
    },
  });

  async function append(record: StoredReport) {
    try {
      await file.append([record]);
    } catch (error) {
      logger.error({ err: error, file: filePath }, 'could not append reports');
      throw error;
    }
  }

  async function readAll() {
    skippedLines = 0;
    const { records } = await file.readFrom(0);
    return { reports: records, skippedLines };
  }

  return { append, readAll };
}

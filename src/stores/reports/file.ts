import { join } from 'node:path';
import { createJsonLinesFile } from '../../files/jsonLinesFile.js';
import { loadIpHashSalt, saveIpHashSalt } from '../../reports/ipHash.js';
import { StoredReport } from '../../reports/schema.js';
import { REPORTS_FILE, type ReportsLog, type SharedReports } from '../../reports/store.js';
import { UuidSet } from './uuidSet.js';

/** This instance's reports alone; also what the Redis implementation keeps as its durable record. */
export interface FileReports extends SharedReports {
  /** Each report of the file in order, streamed, for the Redis view to heal from. */
  forEach(onReport: (report: StoredReport) => void | Promise<void>): Promise<void>;
  /** Keeps `salt` as this instance's salt from now on (the service's shared one). */
  adoptIpHashSalt(salt: Buffer): Promise<void>;
}

/**
 * The embedded default: DATA_DIR/reports.jsonl (src/files/jsonLinesFile.ts), readable by its
 * owner only, and an index of the ids in memory (read once at start, streamed), so that a
 * confirmation never reads the file.
 */
export function createFileReports(dataDir: string, logger: ReportsLog): FileReports {
  const path = join(dataDir, REPORTS_FILE);
  let skippedLines = 0;
  const file = createJsonLinesFile(path, StoredReport, {
    mode: 0o600,
    onUnreadable: (line) => {
      skippedLines++;
      logger.warn({ file: path, line }, 'skipping an unreadable report line (torn by a crash?)');
    },
  });
  const ids = new UuidSet();
  let indexed: Promise<void> | undefined;
  // Read on first need, and again after a failed read.
  const index = () => {
    indexed ??= file
      .forEach((report) => ids.add(report.id))
      .catch((error: unknown) => {
        indexed = undefined;
        throw error;
      });
    return indexed;
  };
  let salt: Promise<Buffer> | undefined;

  async function add(report: StoredReport): Promise<void> {
    try {
      await file.append([report]);
    } catch (error) {
      logger.error({ err: error, file: path }, 'could not append reports');
      throw error;
    }
    ids.add(report.id);
  }

  async function has(id: string): Promise<boolean> {
    await index();
    return ids.has(id);
  }

  async function list() {
    const reports: StoredReport[] = [];
    skippedLines = 0;
    await file.forEach((report) => {
      reports.push(report);
    });
    return { reports, skippedLines };
  }

  function ipHashSalt(): Promise<Buffer> {
    // Kept once loaded; forgotten after a failure so the next report tries again.
    salt ??= loadIpHashSalt(dataDir, logger).catch((error: unknown) => {
      salt = undefined;
      throw error;
    });
    return salt;
  }

  async function adoptIpHashSalt(shared: Buffer): Promise<void> {
    if ((await ipHashSalt()).equals(shared)) return;
    await saveIpHashSalt(dataDir, shared);
    salt = Promise.resolve(shared);
  }

  return { add, has, list, ipHashSalt, forEach: file.forEach, adoptIpHashSalt };
}

import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseJsonLines } from '../jsonLines.js';
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

interface PendingAppend {
  line: string;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Append-only JSON lines. One writer drains a queue: every record waiting at that moment goes out
 * in one write and one fsync (group commit), so lines never interleave and concurrent submitters
 * share the cost of the sync. A crash mid-write leaves at most one torn, unacknowledged last line.
 */
export function createReportStore(filePath: string, logger: StoreLog): ReportStore {
  const queue: PendingAppend[] = [];
  let draining = false;
  // Whether the file is known to end with a newline; unknown at start and after a failed write.
  let tailChecked = false;

  async function writeBatch(text: string): Promise<void> {
    await mkdir(dirname(filePath), { recursive: true });
    const file = await open(filePath, 'a+', 0o600);
    let created = false;
    try {
      let prefix = '';
      if (!tailChecked) {
        const { size } = await file.stat();
        created = size === 0;
        // A torn line from a crash gets its newline here, so the next record starts a line of its own.
        if (size > 0) {
          const last = Buffer.alloc(1);
          await file.read(last, 0, 1, size - 1);
          if (last[0] !== 0x0a) prefix = '\n';
        }
      }
      await file.appendFile(prefix + text, 'utf8');
      await file.datasync();
      tailChecked = true;
    } catch (error) {
      tailChecked = false;
      throw error;
    } finally {
      await file.close();
    }
    // A new file is durable only once its directory entry is.
    if (created) await syncDirectory(dirname(filePath));
  }

  async function drain(): Promise<void> {
    draining = true;
    while (queue.length > 0) {
      const batch = queue.splice(0);
      try {
        await writeBatch(batch.map((entry) => entry.line).join(''));
        for (const entry of batch) entry.resolve();
      } catch (error) {
        logger.error({ err: error, file: filePath, records: batch.length }, 'could not append reports');
        for (const entry of batch) entry.reject(error);
      }
    }
    draining = false;
  }

  function append(record: StoredReport): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      queue.push({ line: `${JSON.stringify(record)}\n`, resolve, reject });
      if (!draining) void drain();
    });
  }

  async function readAll() {
    let text: string;
    try {
      text = await readFile(filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { reports: [], skippedLines: 0 };
      throw error;
    }
    let skippedLines = 0;
    const reports = parseJsonLines(text, StoredReport, (line) => {
      skippedLines++;
      logger.warn({ file: filePath, line }, 'skipping an unreadable report line (torn by a crash?)');
    });
    return { reports, skippedLines };
  }

  return { append, readAll };
}

async function syncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

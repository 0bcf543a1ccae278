import { randomUUID } from 'node:crypto';
import type { SharedReports } from './store.js';
import { filterReports, type ReportFilter } from './filter.js';
import { ReportNotStoredError } from './errors.js';
import { hashIp } from './ipHash.js';
import type { ReportInput, StoredReport } from './schema.js';

const USER_AGENT_MAX = 512;

/** Who sent a report, as far as we keep it. */
export interface ReportSender {
  ip: string;
  userAgent: string | undefined;
}

export interface ReportService {
  submit(input: ReportInput, sender: ReportSender): Promise<{ id: string; createdAt: string }>;
  list(filter: ReportFilter): Promise<{ reports: StoredReport[]; skippedLines: number }>;
  /** Whether the report was taken (by any instance), for its confirmation page. */
  exists(id: string): Promise<boolean>;
}

/** Reports over the store src/stores/index.ts picks: this instance's file, or every instance's through Redis. */
export function createReportService(store: SharedReports): ReportService {
  async function submit(input: ReportInput, sender: ReportSender) {
    // The salt and the report are written to DATA_DIR: a disk that fails them refuses the report, never as a bug.
    const stored = <T>(write: () => Promise<T>) =>
      write().catch((error: unknown) => {
        throw new ReportNotStoredError(error);
      });
    const record: StoredReport = {
      id: randomUUID(),
      createdAt: new Date().toISOString(),
      ...input,
      userAgent: sender.userAgent === undefined ? null : [...sender.userAgent].slice(0, USER_AGENT_MAX).join(''),
      ipHash: hashIp(await stored(() => store.ipHashSalt()), sender.ip),
    };
    await stored(() => store.add(record));
    return { id: record.id, createdAt: record.createdAt };
  }

  async function list(filter: ReportFilter) {
    const { reports, skippedLines } = await store.list();
    return { reports: filterReports(reports, filter), skippedLines };
  }

  return { submit, list, exists: store.has };
}

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from '../config/logger.js';
import { filterReports, type ReportFilter } from './filter.js';
import { hashIp, loadIpHashSalt } from './ipHash.js';
import type { ReportInput, StoredReport } from './schema.js';
import { createReportStore } from './store.js';

export const REPORTS_FILE = 'reports.jsonl';
const USER_AGENT_MAX = 512;

/** Who sent a report, as far as we keep it. */
export interface ReportSender {
  ip: string;
  userAgent: string | undefined;
}

export interface ReportService {
  submit(input: ReportInput, sender: ReportSender): Promise<{ id: string; createdAt: string }>;
  list(filter: ReportFilter): Promise<{ reports: StoredReport[]; skippedLines: number }>;
  find(id: string): Promise<StoredReport | undefined>;
}

export function createReportService({ dataDir, logger }: { dataDir: string; logger: Logger }): ReportService {
  const store = createReportStore(join(dataDir, REPORTS_FILE), logger);
  let salt: Promise<Buffer> | undefined;

  function loadSalt(): Promise<Buffer> {
    // Kept once loaded; forgotten after a failure so the next report tries again.
    salt ??= loadIpHashSalt(dataDir).catch((error: unknown) => {
      salt = undefined;
      throw error;
    });
    return salt;
  }

  async function submit(input: ReportInput, sender: ReportSender) {
    const record: StoredReport = {
      id: randomUUID(),
      createdAt: new Date().toISOString(),
      ...input,
      userAgent: sender.userAgent === undefined ? null : [...sender.userAgent].slice(0, USER_AGENT_MAX).join(''),
      ipHash: hashIp(await loadSalt(), sender.ip),
    };
    await store.append(record);
    return { id: record.id, createdAt: record.createdAt };
  }

  async function list(filter: ReportFilter) {
    const { reports, skippedLines } = await store.readAll();
    return { reports: filterReports(reports, filter), skippedLines };
  }

  async function find(id: string) {
    const { reports } = await store.readAll();
    return reports.find((report) => report.id === id);
  }

  return { submit, list, find };
}

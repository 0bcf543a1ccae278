import { z } from 'zod';
import { REPORT_CATEGORIES, REPORT_SEVERITIES, type StoredReport } from './schema.js';

const choice = <const Value extends string>(field: string, choices: readonly { value: Value }[]) => {
  const values = choices.map((entry) => entry.value) as [Value, ...Value[]];
  return z.enum(values, { error: `${field} must be one of: ${values.join(', ')}` });
};

// A calendar day in UTC, the way createdAt is written; "2026-02-30" is refused, not rolled over.
const day = (field: string) =>
  z.string().refine((text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), {
    error: `${field} must be a date written YYYY-MM-DD`,
  });

/** What operators may narrow a report listing by (the admin endpoint's query and the CLI's options). */
export const ReportFilter = z.object({
  category: choice('category', REPORT_CATEGORIES).optional(),
  severity: choice('severity', REPORT_SEVERITIES).optional(),
  from: day('from').optional().describe('First day, inclusive (UTC)'),
  to: day('to').optional().describe('Last day, inclusive (UTC)'),
});

export type ReportFilter = z.infer<typeof ReportFilter>;

/** The matching reports, newest first. */
export function filterReports(reports: readonly StoredReport[], filter: ReportFilter): StoredReport[] {
  return reports
    .filter((report) => {
      const createdOn = report.createdAt.slice(0, 10);
      return (
        (filter.category === undefined || report.category === filter.category) &&
        (filter.severity === undefined || report.severity === filter.severity) &&
        (filter.from === undefined || createdOn >= filter.from) &&
        (filter.to === undefined || createdOn <= filter.to)
      );
    })
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

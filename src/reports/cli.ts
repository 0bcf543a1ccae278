import { parseArgs } from 'node:util';
import { REPORTS_FILE, type SharedReports } from './store.js';
import { filterReports, ReportFilter } from './filter.js';
import type { StoredReport } from './schema.js';

/** @internal exported for the tests: the CLI test checks a wrong command prints it whole. */
export const USAGE = `Usage:
  npm run reports -- [list] [--category C] [--severity S] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]
  npm run reports -- show <id> [--json]

Reads DATA_DIR/${REPORTS_FILE} (DATA_DIR defaults to ./data), and with REDIS_URL the reports of
every instance. Lists newest first.`;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

// Report text is typed by strangers: terminal control characters (escape sequences) and bidi
// controls (embeddings, overrides, isolates and marks, which can reorder a table row on the
// terminal) are shown as \u escapes, never written raw.
// eslint-disable-next-line no-control-regex -- matching control characters is what this pattern is for
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const escapeControls = (text: string) => text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
const oneLine = (text: string) => escapeControls(text.replace(/[\r\n\t]+/g, ' '));

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

function table(reports: StoredReport[]): string {
  const rows = reports.map((report) => [
    report.createdAt.slice(0, 16).replace('T', ' '),
    report.id,
    report.category,
    report.severity,
    report.endpoint,
    truncate(oneLine(report.title), 50),
  ]);
  const header = ['CREATED (UTC)', 'ID', 'CATEGORY', 'SEVERITY', 'ENDPOINT', 'TITLE'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => [...(row[column] as string)].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell + ' '.repeat((widths[column] as number) - [...cell].length))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function details(report: StoredReport): string {
  const fields: [string, string][] = [
    ['id', report.id],
    ['createdAt', report.createdAt],
    ['category', report.category],
    ['severity', report.severity],
    ['endpoint', report.endpoint],
    ['title', oneLine(report.title)],
    ['userAgent', oneLine(report.userAgent ?? '-')],
    ['ipHash', report.ipHash],
  ];
  const width = Math.max(...fields.map(([name]) => name.length));
  return [...fields.map(([name, value]) => `${name.padEnd(width)}  ${value}`), '', escapeControls(report.description)].join('\n');
}

// JSON.stringify leaves C1 control characters (U+0080–U+009F) and bidi controls raw; terminals act on them.
const json = (value: unknown) => escapeControls(JSON.stringify(value, null, 2));

/** `npm run reports`: list (with filters) or show one report, as a table or JSON. Returns the exit code. */
export async function runReportsCli(argv: string[], store: Pick<SharedReports, 'list'>, io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        category: { type: 'string' },
        severity: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command = 'list', id, ...extra] = positionals;
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (extra.length > 0 || !['list', 'show'].includes(command) || (command === 'show') !== (id !== undefined)) {
    io.err(USAGE);
    return 2;
  }

  const { reports } = await store.list();

  if (command === 'show') {
    const report = reports.find((candidate) => candidate.id === id);
    if (!report) {
      io.err(`No report with id ${escapeControls(id as string)}`);
      return 1;
    }
    io.out(values.json ? json(report) : details(report));
    return 0;
  }

  const filter = ReportFilter.safeParse({ category: values.category, severity: values.severity, from: values.from, to: values.to });
  if (!filter.success) {
    io.err(filter.error.issues.map((issue) => issue.message).join('\n'));
    return 2;
  }
  const matching = filterReports(reports, filter.data);
  io.out(values.json ? json(matching) : matching.length === 0 ? 'No reports match.' : table(matching));
  return 0;
}

import { z } from 'zod';
import { REPORT_CENTER_PATHS } from '../catalog/endpoints/index.js';
import { isBlank } from '../contract/blank.js';

// The Report Center's fields as the contract defines them. The page, POST /report, POST /api/reports,
// the OpenAPI document and the operators' tools all read these lists.

export const REPORT_CATEGORIES = [
  { value: 'bug', label: 'Bug / Error' },
  { value: 'api-down', label: 'API Mati / Down' },
  { value: 'wrong-data', label: 'Data Salah' },
  { value: 'slow', label: 'Performa Lambat' },
  { value: 'feature', label: 'Request Fitur' },
  { value: 'other', label: 'Lainnya' },
] as const;

export const REPORT_SEVERITIES = [
  { value: 'low', label: 'Rendah' },
  { value: 'medium', label: 'Sedang' },
  { value: 'high', label: 'Tinggi' },
  { value: 'critical', label: 'Kritis' },
] as const;

export const REPORT_ENDPOINTS: readonly { value: string; label: string }[] = [
  ...REPORT_CENTER_PATHS.map((path) => ({ value: path, label: `GET ${path}` })),
  { value: 'other', label: 'Lainnya / Tidak spesifik' },
];

export type ReportCategory = (typeof REPORT_CATEGORIES)[number]['value'];
export type ReportSeverity = (typeof REPORT_SEVERITIES)[number]['value'];

export const TITLE_MAX = 100;
export const DESCRIPTION_MAX = 1000;
/** Hidden from people, so only a bot fills it in. */
export const HONEYPOT_FIELD = 'website';

/** Lengths are Unicode code points, so an emoji counts once (the page's counter counts the same way). */
export function codePointLength(text: string): number {
  return [...text].length;
}

/** Browsers submit textarea line breaks as CRLF but count them as one character while typing. */
function normalizeLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

type Issue = { message: string; rule: string };
const issue = (message: string, rule: string): Issue => ({ message, rule });

/**
 * One body field: exactly one issue per field, with a `rule` the API's details and the page's
 * Indonesian messages are keyed on. Form bodies give strings (arrays when repeated); JSON any type.
 */
function bodyField<T>(field: string, read: (text: string) => T | Issue, whenMissing: () => T | Issue) {
  return z
    .unknown()
    .optional()
    .transform((raw, ctx): T => {
      const result =
        raw === undefined || raw === null || raw === ''
          ? whenMissing()
          : Array.isArray(raw)
            ? issue(`${field} must be given once`, 'single value')
            : typeof raw !== 'string'
              ? issue(`${field} must be a string`, 'text')
              : read(raw);
      if (typeof result === 'object' && result !== null && 'rule' in result) {
        ctx.addIssue({ code: 'custom', message: result.message, params: { rule: result.rule } });
        return z.NEVER;
      }
      return result;
    });
}

const required = (field: string) => () => issue(`${field} is required`, 'required');

function choiceField<const Value extends string>(field: string, choices: readonly { value: Value }[], description: string) {
  const values = choices.map((choice) => choice.value);
  return bodyField(
    field,
    (text) =>
      (values as readonly string[]).includes(text)
        ? (text as Value)
        : issue(`${field} must be one of: ${values.join(', ')}`, 'one of the choices'),
    required(field),
  ).meta({ description, type: 'string', enum: values });
}

function textField(field: string, max: number, description: string) {
  return bodyField(
    field,
    (raw) => {
      const text = normalizeLineBreaks(raw);
      if (isBlank(text)) return issue(`${field} must not be blank`, 'not blank');
      if (codePointLength(text) > max) return issue(`${field} must be at most ${max} characters`, `max ${max} characters`);
      return text;
    },
    required(field),
  ).meta({
    description: `${description}, 1 to ${max} characters (Unicode code points: an emoji counts once)`,
    type: 'string',
    minLength: 1,
    maxLength: max,
  });
}

const honeypot = bodyField(
  HONEYPOT_FIELD,
  () => issue(`${HONEYPOT_FIELD} must be empty`, 'must be empty'),
  () => '',
).meta({ description: 'Leave out or empty: it is a trap for bots', type: 'string', maxLength: 0 });

/** The fields a person (or a client) submits. Text is kept as typed; it is escaped wherever it is shown. */
export const ReportFields = z.object({
  category: choiceField('category', REPORT_CATEGORIES, 'What kind of problem'),
  endpoint: choiceField('endpoint', REPORT_ENDPOINTS, 'The endpoint concerned, or "other"'),
  title: textField('title', TITLE_MAX, 'A short summary'),
  description: textField('description', DESCRIPTION_MAX, 'What happened and what was expected'),
  severity: choiceField('severity', REPORT_SEVERITIES, 'How bad it is'),
  [HONEYPOT_FIELD]: honeypot,
});

/** A valid report, the trap field dropped. */
export const ReportInput = ReportFields.transform(({ [HONEYPOT_FIELD]: _trap, ...input }) => input);

export type ReportInput = z.output<typeof ReportInput>;
export type ReportField = keyof ReportInput;

/** One line of DATA_DIR/reports.jsonl. The IP is kept only as a salted hash. */
export const StoredReport = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  category: z.enum(REPORT_CATEGORIES.map((c) => c.value) as [ReportCategory, ...ReportCategory[]]),
  endpoint: z.string(),
  title: z.string(),
  description: z.string(),
  severity: z.enum(REPORT_SEVERITIES.map((s) => s.value) as [ReportSeverity, ...ReportSeverity[]]),
  userAgent: z.string().nullable(),
  ipHash: z.string(),
});

export type StoredReport = z.infer<typeof StoredReport>;

export const ReportCreated = z
  .object({
    status: z.literal('success'),
    data: z.object({ id: z.string().describe('The report id (a UUID)'), createdAt: z.iso.datetime() }),
  })
  .meta({ id: 'ReportCreated' });

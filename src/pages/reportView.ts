import type { ErrorDetail } from '../contract/schemas.js';
import {
  codePointLength,
  DESCRIPTION_MAX,
  HONEYPOT_FIELD,
  REPORT_CATEGORIES,
  REPORT_ENDPOINTS,
  REPORT_SEVERITIES,
  TITLE_MAX,
  type ReportField,
} from '../reports/schema.js';

// The Report Center form as the template needs it: options with what is selected, what was typed,
// and an Indonesian message beside each wrong field. The same messages go to the page's script as
// data attributes, so the checks before sending and the server's answer read alike.

const LABELS: Record<ReportField, string> = {
  category: 'Kategori',
  endpoint: 'Endpoint',
  title: 'Judul singkat',
  description: 'Deskripsi',
  severity: 'Tingkat keparahan',
};

const REQUIRED_MESSAGES: Record<ReportField, string> = {
  category: 'Pilih kategori laporan.',
  endpoint: 'Pilih endpoint yang bermasalah, atau "Lainnya / Tidak spesifik".',
  title: 'Tulis judul singkat.',
  description: 'Tulis deskripsi masalahnya.',
  severity: 'Pilih tingkat keparahan.',
};

const TRAP_MESSAGE =
  'Laporan belum terkirim: isian tersembunyi anti-spam ikut terisi (mungkin oleh isi-otomatis browser). Periksa isian lalu kirim lagi.';
const BLANK_MESSAGE = 'Isian ini tidak boleh hanya berisi spasi.';
/** `{n}` is the current count; the page's script fills it in the same way. */
const maxMessage = (max: number) => `Maksimal ${max} karakter (sekarang {n}).`;

function messageFor(field: string, rule: string, value: string): string {
  if (rule === 'required') return REQUIRED_MESSAGES[field as ReportField] ?? 'Isian ini wajib diisi.';
  if (rule === 'not blank') return BLANK_MESSAGE;
  const max = /^max (\d+) characters$/.exec(rule)?.[1];
  if (max) return maxMessage(Number(max)).replace('{n}', String(codePointLength(value)));
  if (rule === 'one of the choices') return 'Pilih salah satu pilihan yang tersedia.';
  if (rule === 'must be empty') return 'Kolom ini harus dibiarkan kosong.';
  return 'Isian ini tidak valid.';
}

interface OptionView {
  value: string;
  label: string;
  selected: boolean;
}

interface ChoiceFieldView {
  name: ReportField;
  label: string;
  /** The control a link to the field focuses: the first radio of a group, else the field itself. */
  focusId: string;
  options: OptionView[];
  error: string | undefined;
  requiredMessage: string;
}

interface TextFieldView extends ChoiceFieldView {
  value: string;
  count: number;
  max: number;
  blankMessage: string;
  maxMessage: string;
}

export interface ReportFormView {
  /** A problem with the whole submission (e.g. the report quota), shown above the form. */
  formError: string | undefined;
  errorSummary: { focusId: string; label: string; message: string }[];
  category: ChoiceFieldView;
  endpoint: ChoiceFieldView;
  title: TextFieldView;
  description: TextFieldView;
  severity: ChoiceFieldView;
  honeypotName: string;
}

/** What the form shows: typed or pre-filled values (strings only; anything else counts as empty). */
export type ReportFormValues = Partial<Record<string, unknown>>;

export function reportFormView(values: ReportFormValues = {}, details: ErrorDetail[] = [], formError?: string): ReportFormView {
  const text = (name: string) => (typeof values[name] === 'string' ? values[name] : '');
  const errors = new Map(details.map((detail) => [detail.field, messageFor(detail.field, detail.rule, text(detail.field))]));

  const choice = (name: ReportField, choices: readonly { value: string; label: string }[], radio = false): ChoiceFieldView => ({
    name,
    label: LABELS[name],
    focusId: radio ? `${name}-${choices[0]?.value}` : name,
    options: choices.map(({ value, label }) => ({ value, label, selected: value === text(name) })),
    error: errors.get(name),
    requiredMessage: REQUIRED_MESSAGES[name],
  });
  const textField = (name: ReportField, max: number): TextFieldView => ({
    ...choice(name, []),
    value: text(name),
    count: codePointLength(text(name).replace(/\r\n?/g, '\n')),
    max,
    blankMessage: BLANK_MESSAGE,
    maxMessage: maxMessage(max),
  });

  const form = {
    category: choice('category', REPORT_CATEGORIES, true),
    endpoint: choice('endpoint', REPORT_ENDPOINTS),
    title: textField('title', TITLE_MAX),
    description: textField('description', DESCRIPTION_MAX),
    severity: choice('severity', REPORT_SEVERITIES, true),
  };
  return {
    ...form,
    // The trap field is never shown, so a person whose browser filled it in learns it here; it comes back empty.
    formError: formError ?? (errors.has(HONEYPOT_FIELD) ? TRAP_MESSAGE : undefined),
    errorSummary: Object.values(form)
      .filter((field) => field.error !== undefined)
      .map((field) => ({ focusId: field.focusId, label: field.label, message: field.error as string })),
    honeypotName: HONEYPOT_FIELD,
  };
}

/** `?endpoint=&category=` pre-fill the form (the `reportUrl` of an API error); unknown values are ignored. */
export function prefillFromQuery(query: Record<string, unknown>): { endpoint?: string; category?: string } {
  const pick = (name: string, choices: readonly { value: string }[]) => {
    const value = query[name];
    return typeof value === 'string' && choices.some((choice) => choice.value === value) ? value : undefined;
  };
  return { endpoint: pick('endpoint', REPORT_ENDPOINTS), category: pick('category', REPORT_CATEGORIES) };
}

export function reportQuotaMessage(limit: number, retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Anda sudah mengirim ${limit} laporan dalam jendela waktu ini. Coba kirim lagi dalam ${minutes} menit. Isian Anda tidak kami baca: tombol Kembali pada peramban membuka lagi formulir yang berisi isian itu.`;
}

import { endpoints, freshSeconds } from '../catalog/endpoints/index.js';
import { exampleFor, REPORT_EXAMPLE } from '../openapi/examples/index.js';
import { fieldDocs, type FieldDoc } from '../openapi/fieldDocs.js';
import type { ErrorCode } from '../contract/schemas.js';
import { writtenDefaults, type Config } from '../config/schema.js';
import { catalogErrorCodes, ERROR_CODES, EXPORT_ERROR_CODES, LOCAL_CATALOG_PARAMETER, REPORT_ERROR_CODES } from '../contract/errorCodes.js';
import { BODY_LIMIT_BYTES } from '../config/requestLimits.js';
import { ReportFields } from '../reports/schema.js';
import { sampleView, type SampleView } from './codeSamples.js';
import { formatDuration } from './duration.js';
import { feedViews, type FeedDocView } from './feedsView.js';
import { endpointText } from './endpointText.js';
import { SETTINGS_TEXT } from './settingsText.js';
import { anchorOf, serviceFacts, urlWithParameters, type ServiceFacts } from './serviceFacts.js';

interface FieldRuleView {
  name: string;
  required: boolean;
  rule: string;
}

interface ParameterView extends FieldRuleView {
  /** "path" for a segment of the URL (`{slug}`), "query" for a query parameter. */
  location: 'path' | 'query';
  /** What the "Coba" form starts with. */
  example: string;
  /** Shown in an empty input: the value the server takes when it is left out. */
  placeholder: string;
}

interface ErrorCodeView {
  status: number;
  code: ErrorCode;
  kapan: string;
}

interface EndpointDocView {
  path: string;
  /** Where the "Coba" form goes without JavaScript: the path, or /docs/try for one with path parameters. */
  formAction: string;
  anchor: string;
  summary: string;
  description: string;
  freshFor: string;
  parameters: ParameterView[];
  exampleJson: string;
  code: SampleView;
  errors: ErrorCodeView[];
}

export interface DocsView extends ServiceFacts {
  baseUrl: string;
  errorCodes: ErrorCodeView[];
  reference: EndpointDocView[];
  /** Each feed with a code sample of its JSON Feed, the form a bot reads most easily. */
  feeds: (FeedDocView & { code: SampleView })[];
  /** The three files of /export, each with its "Coba" link. */
  exportFiles: { path: string; mediaType: string; summary: string }[];
  exportErrors: ErrorCodeView[];
  reportFields: FieldRuleView[];
  reportErrors: ErrorCodeView[];
  reportExampleJson: string;
  reportCode: SampleView;
  bodyLimitKb: number;
  /** Every environment variable of a self-hosted instance: its default ('' when unset) and what it does. */
  settings: { name: string; defaultValue: string; meaning: string }[];
}

/** A field's rule in words, from the same hints the validation and /openapi.json carry. */
function ruleText({ schema }: FieldDoc): string {
  const parts: string[] = [];
  if (schema.enum) parts.push(`salah satu dari: ${schema.enum.join(', ')}`);
  else if (schema.type === 'integer') parts.push(`bilangan bulat ${schema.minimum}–${schema.maximum}`);
  else if (schema.maxLength === 0) parts.push('harus kosong atau tidak dikirim');
  else if (schema.type === 'array') parts.push(`slug situs sumber dipisah koma, paling banyak ${schema.maxItems}`);
  else if (schema.pattern)
    parts.push(
      `slug situs sumber: huruf kecil, angka, tanda hubung, atau UTF-8 ter-encode persen; ${schema.minLength}–${schema.maxLength} karakter`,
    );
  else if (schema.type === 'string') parts.push(`teks ${schema.minLength}–${schema.maxLength} karakter (emoji dihitung satu)`);
  if (schema.default !== undefined) parts.push(`bawaan ${String(schema.default)}`);
  return parts.join('; ');
}

const fieldRule = (field: FieldDoc): FieldRuleView => ({ name: field.name, required: field.required, rule: ruleText(field) });

const errorView = (code: ErrorCode): ErrorCodeView => ({ code, status: ERROR_CODES[code].status, kapan: ERROR_CODES[code].kapan });

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

const JSON_MEDIA_TYPE = 'application/json';

/** A plain form cannot put its fields into its action's path (`/catalog/series/{slug}`); this route does, then redirects. */
export const TRY_PATH_PREFIX = '/docs/try';

const hasPathParameters = (path: string) => path.includes('{');

/** The request URL a "Coba" form without JavaScript asks for; null when `endpointPath` is no endpoint with path parameters. */
export function tryItUrl(endpointPath: string, query: Record<string, unknown>): string | null {
  const endpoint = endpoints.find((entry) => entry.path === endpointPath && hasPathParameters(entry.path));
  if (endpoint === undefined) return null;
  const parameters = Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''),
  );
  return urlWithParameters(endpoint.path, parameters);
}

export function docsView(config: Config, baseUrl: string): DocsView {
  const reference = endpoints.map((endpoint) => {
    const example = exampleFor(endpoint.path);
    const located = (location: 'path' | 'query') => (field: FieldDoc) => ({ field, location });
    const fields = [...fieldDocs(endpoint.params).map(located('path')), ...fieldDocs(endpoint.query).map(located('query'))];
    const parameters = fields.map(({ field, location }) => ({
      ...fieldRule(field),
      location,
      example: example.parameters[field.name] ?? '',
      placeholder: field.schema.default === undefined ? '' : String(field.schema.default),
    }));
    return {
      path: endpoint.path,
      formAction: hasPathParameters(endpoint.path) ? `${TRY_PATH_PREFIX}${endpoint.path}` : endpoint.path,
      anchor: anchorOf(endpoint.path),
      ...endpointText(endpoint.path),
      freshFor: formatDuration(freshSeconds(endpoint, config)),
      parameters,
      exampleJson: pretty(example.response),
      code: sampleView(`GET ${endpoint.path}`, {
        method: 'GET',
        url: `${baseUrl}${urlWithParameters(endpoint.path, example.parameters)}`,
        mediaType: JSON_MEDIA_TYPE,
      }),
      errors: catalogErrorCodes(
        parameters.length > 0,
        fields.some(({ field }) => field.name === LOCAL_CATALOG_PARAMETER),
      ).map(errorView),
    };
  });
  return {
    ...serviceFacts(config),
    baseUrl,
    errorCodes: (Object.keys(ERROR_CODES) as ErrorCode[]).map(errorView),
    reference,
    feeds: feedViews(config).map((feed) => {
      const json = feed.links.find((link) => link.format === 'json')!;
      return { ...feed, code: sampleView(`GET ${json.url}`, { method: 'GET', url: `${baseUrl}${json.url}`, mediaType: json.mediaType }) };
    }),
    exportFiles: [
      { path: '/export/catalog.json', mediaType: 'application/json', summary: 'seluruh katalog dalam satu dokumen JSON' },
      { path: '/export/catalog.jsonl', mediaType: 'application/jsonl', summary: 'entri yang sama, satu per baris (JSON Lines)' },
      { path: '/export/catalog.schema.json', mediaType: 'application/schema+json', summary: 'JSON Schema (2020-12) dokumen .json' },
    ],
    exportErrors: EXPORT_ERROR_CODES.map(errorView),
    reportFields: fieldDocs(ReportFields).map(fieldRule),
    reportErrors: REPORT_ERROR_CODES.map(errorView),
    reportExampleJson: pretty(REPORT_EXAMPLE),
    reportCode: sampleView('POST /api/reports', {
      method: 'POST',
      url: `${baseUrl}/api/reports`,
      mediaType: JSON_MEDIA_TYPE,
      body: REPORT_EXAMPLE,
    }),
    bodyLimitKb: BODY_LIMIT_BYTES / 1024,
    settings: Object.entries(writtenDefaults()).map(([name, defaultValue]) => ({
      name,
      defaultValue,
      meaning: SETTINGS_TEXT[name as keyof Config],
    })),
  };
}

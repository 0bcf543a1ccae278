import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Config } from '../config/schema.js';
import { catalogErrorCodes, ERROR_CODES, EXPORT_ERROR_CODES, LOCAL_CATALOG_PARAMETER, REPORT_ERROR_CODES } from '../contract/errorCodes.js';
import * as reportSchemas from '../reports/schema.js';
import { endpoints, freshSeconds, type AnyEndpoint } from '../catalog/endpoints/index.js';
import { exampleFor, REPORT_EXAMPLE } from './examples/index.js';
import { fieldDocs, type FieldDoc } from './fieldDocs.js';
import * as contract from '../contract/index.js';
import { FEED_FORMATS } from '../feeds/model.js';
import { feeds, type FeedDefinition } from '../feeds/table.js';
import type { ErrorCode } from '../contract/schemas.js';

const { version, license } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
  license: string;
};

type JsonObject = Record<string, unknown>;

const ref = (section: 'schemas' | 'headers', id: string) => ({ $ref: `#/components/${section}/${id}` });

/** "/catalog/ongoing-series" → "OngoingSeries"; "/catalog/genres/{slug}" → "GenresBySlug"; "/feeds/latest" → "Latest". */
function stem(path: string): string {
  return path
    .replace(/^\/(catalog|feeds)\//, '')
    .replace(/\{(\w+)\}/g, 'by-$1')
    .replace(/(^|[-/])(\w)/g, (_match, _separator, letter: string) => letter.toUpperCase());
}

/** Component schemas: every exported shape with a global id, plus one envelope per endpoint. */
function componentSchemas(): JsonObject {
  const registry = z.registry<{ id: string }>();
  for (const value of [...Object.values(contract), ...Object.values(reportSchemas)]) {
    const id = value instanceof z.ZodType ? z.globalRegistry.get(value)?.id : undefined;
    if (id) registry.add(value as z.ZodType, { id });
  }
  for (const endpoint of endpoints) registry.add(contract.successEnvelope(endpoint.data), { id: `${stem(endpoint.path)}Response` });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` });
  // zod marks each as a standalone document; inside an OpenAPI document they are plain schemas.
  const components: JsonObject = Object.fromEntries(
    Object.entries(schemas).map(([id, { $id: _id, $schema: _schema, ...schema }]) => [id, schema]),
  );
  components.ReportInput = objectSchema(fieldDocs(reportSchemas.ReportFields));
  return components;
}

function objectSchema(fields: FieldDoc[]): JsonObject {
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((field) => [field.name, field.schema])),
    required: fields.filter((field) => field.required).map((field) => field.name),
  };
}

function headerComponents(config: Config): JsonObject {
  const integer = (description: string) => ({ description, schema: { type: 'integer' } });
  const text = (description: string) => ({ description, schema: { type: 'string' } });
  return {
    'X-RateLimit-Limit': integer(`Requests allowed per window (${config.RATE_LIMIT_MAX})`),
    'X-RateLimit-Remaining': integer('Requests left in the current window'),
    'X-RateLimit-Reset': integer('When the window resets, in Unix time (seconds)'),
    'Retry-After': integer('Seconds to wait before trying again'),
    'X-Request-Id': text('The id of this request; quote it in a report'),
    'X-Cache': {
      description:
        'HIT: within its TTL, from what the service keeps; the site is not asked. MISS: fetched from the site for this request. ' +
        'STALE: past its TTL, served without waiting for the site: a refresh runs, or, when meta.stale is set, the site failed.',
      schema: { type: 'string', enum: ['HIT', 'MISS', 'STALE'] },
    },
    Age: integer('Seconds since the answer was fetched from the upstream'),
    'Cache-Control': text('public, max-age=<seconds the answer stays fresh>'),
    ETag: text('Weak validator; send it back as If-None-Match to get 304 when nothing changed'),
    Allow: text('The methods the route takes'),
    'Last-Modified': text(
      "The feed's newest entry date, or when the exported catalog last changed; send it back as If-Modified-Since to get 304 when nothing changed",
    ),
  };
}

function errorResponses(codes: ErrorCode[], common: JsonObject): JsonObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => {
      const headers: JsonObject = { ...common };
      if (status === 429 || status === 503) headers['Retry-After'] = ref('headers', 'Retry-After');
      if (status === 405) headers.Allow = ref('headers', 'Allow');
      return [
        String(status),
        {
          description: group.map((code) => `\`${code}\`: ${ERROR_CODES[code].when}`).join('. '),
          headers,
          content: { 'application/json': { schema: ref('schemas', 'Error') } },
        },
      ];
    }),
  );
}

/** The headers every counted answer carries, errors included. */
const QUOTA_HEADERS = Object.fromEntries(
  ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) => [name, ref('headers', name)]),
);

function catalogOperation(endpoint: AnyEndpoint, config: Config): JsonObject {
  const parameter =
    (location: 'path' | 'query') =>
    ({ name, required, schema: { description, ...schema } }: FieldDoc) => ({
      name,
      in: location,
      required,
      description,
      // Lists are one comma-separated value (`genre=action,fantasy`), not a repeated parameter.
      ...(schema.type === 'array' ? { explode: false } : {}),
      schema,
    });
  const parameters = [...fieldDocs(endpoint.params).map(parameter('path')), ...fieldDocs(endpoint.query).map(parameter('query'))];

  const cacheHeaders = Object.fromEntries(['X-Cache', 'Age', 'Cache-Control', 'ETag'].map((name) => [name, ref('headers', name)]));
  return {
    operationId: `get${stem(endpoint.path)}`,
    tags: ['catalog'],
    summary: endpoint.summary,
    description: `${endpoint.description}\n\nAnswers stay fresh for ${freshSeconds(endpoint, config)} seconds.`,
    parameters,
    responses: {
      '200': {
        description: 'Success',
        headers: { ...QUOTA_HEADERS, ...cacheHeaders },
        content: {
          'application/json': { schema: ref('schemas', `${stem(endpoint.path)}Response`), example: exampleFor(endpoint.path).response },
        },
      },
      '304': { description: 'Not modified: the If-None-Match validator still matches', headers: { ...QUOTA_HEADERS, ...cacheHeaders } },
      ...errorResponses(
        catalogErrorCodes(
          parameters.length > 0,
          parameters.some(({ name }) => name === LOCAL_CATALOG_PARAMETER),
        ),
        QUOTA_HEADERS,
      ),
    },
  };
}

const FEED_FORMAT_NAMES = Object.keys(FEED_FORMATS);

/** The OpenAPI path of a feed: its extension is a path parameter, e.g. "/feeds/series/{slug}.{format}". */
const feedOpenApiPath = (feed: FeedDefinition) => `${feed.path}.{format}`;

function feedOperation(feed: FeedDefinition, config: Config): JsonObject {
  const slugParameters = fieldDocs(feed.params).map(({ name, required, schema: { description, ...schema } }) => ({
    name,
    in: 'path',
    required,
    description,
    schema,
  }));
  const format = {
    name: 'format',
    in: 'path',
    required: true,
    description: `The feed's format, by its extension: ${FEED_FORMAT_NAMES.map((name) => `\`${name}\` (${FEED_FORMATS[name as keyof typeof FEED_FORMATS].name})`).join(', ')}; any other is 404`,
    schema: { type: 'string', enum: FEED_FORMAT_NAMES },
  };

  const validators = Object.fromEntries(
    ['X-Cache', 'Age', 'Cache-Control', 'ETag', 'Last-Modified'].map((name) => [name, ref('headers', name)]),
  );
  const xml = { schema: { type: 'string', description: 'The feed document' } };
  return {
    operationId: `getFeed${stem(feed.path)}`,
    tags: ['feeds'],
    summary: feed.summary,
    description:
      `${feed.description}\n\nBuilt from the answer of \`${feed.endpoint.path}\` (same cache and errors), fresh for ${freshSeconds(feed.endpoint, config)} seconds. ` +
      'Entries link the site page and their JSON in this API, with the poster as image. Counted in the per-IP quota, except a conditional request answered 304.',
    parameters: [...slugParameters, format],
    responses: {
      '200': {
        description: 'The feed',
        headers: { ...QUOTA_HEADERS, ...validators },
        content: {
          [FEED_FORMATS.atom.mediaType.split(';')[0]!]: xml,
          [FEED_FORMATS.rss.mediaType.split(';')[0]!]: xml,
          [FEED_FORMATS.json.mediaType.split(';')[0]!]: { schema: ref('schemas', 'JsonFeed') },
        },
      },
      '304': {
        description: 'Not modified: If-None-Match or If-Modified-Since still matches; not counted in the quota',
        headers: { ...QUOTA_HEADERS, ...validators },
      },
      ...errorResponses(catalogErrorCodes(slugParameters.length > 0), QUOTA_HEADERS),
    },
  };
}

const EXPORT_FILES = [
  {
    path: '/export/catalog.json',
    operationId: 'getCatalogExport',
    summary: 'The whole catalog in one JSON document',
    description:
      "Every series the site lists, as this service's crawler last read its page: the series detail without `episodes` and `batches`, plus `sub`, `listedEpisodes`, `checkedAt` and `changedAt`, ordered by slug; `removed` lists the series the site no longer has; `complete` is true once every listed series has been read.",
    mediaType: 'application/json',
    schema: ref('schemas', 'CatalogExport'),
  },
  {
    path: '/export/catalog.jsonl',
    operationId: 'getCatalogExportLines',
    summary: 'The whole catalog as JSON lines',
    description: 'The entries of /export/catalog.json, one per line, in the same order, and nothing else.',
    mediaType: 'application/jsonl',
    schema: { type: 'string', description: 'One CatalogEntry (JSON) per line' },
  },
  {
    path: '/export/catalog.schema.json',
    operationId: 'getCatalogExportSchema',
    summary: 'The JSON Schema of the catalog document',
    description: 'JSON Schema (2020-12) of /export/catalog.json, generated from the same schema that types it.',
    mediaType: 'application/schema+json',
    schema: { type: 'object', description: 'A JSON Schema (2020-12) document' },
  },
] as const;

function exportOperation(file: (typeof EXPORT_FILES)[number]): JsonObject {
  const validators = Object.fromEntries(['ETag', 'Last-Modified', 'Cache-Control'].map((name) => [name, ref('headers', name)]));
  return {
    operationId: file.operationId,
    tags: ['export'],
    summary: file.summary,
    description: `${file.description}\n\nBuilt once per change of the catalog and sent gzip-compressed when the client accepts it. Counts as one request of the quota; a conditional request answered 304 does not. 503 \`CATALOG_NOT_READY\` while the crawler is turned off or has read nothing yet.`,
    responses: {
      '200': {
        description: file.summary,
        headers: { ...QUOTA_HEADERS, ...validators },
        content: { [file.mediaType]: { schema: file.schema } },
      },
      '304': {
        description: 'Not modified: If-None-Match or If-Modified-Since still matches; not counted in the quota',
        headers: { ...QUOTA_HEADERS, ...validators },
      },
      ...errorResponses(EXPORT_ERROR_CODES, QUOTA_HEADERS),
    },
  };
}

function reportOperation(config: Config): JsonObject {
  return {
    operationId: 'createReport',
    tags: ['reports'],
    summary: 'Send a report to the maintainers',
    description: `The Report Center's form as JSON. At most ${config.REPORT_RATE_LIMIT_MAX} reports per IP per window. The report is on disk before 201 is answered.`,
    requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', 'ReportInput'), example: REPORT_EXAMPLE } } },
    responses: {
      '201': { description: 'Stored', content: { 'application/json': { schema: ref('schemas', 'ReportCreated') } } },
      ...errorResponses(REPORT_ERROR_CODES, {}),
    },
  };
}

/**
 * /openapi.json: generated from the endpoint table, the zod schemas and the configuration.
 * `origin` is where the client reached the service; the server and the contact are absolute URLs on it.
 */
export function buildOpenApiDocument(config: Config, origin: string): JsonObject {
  const windowMinutes = Math.round(config.RATE_LIMIT_WINDOW_S / 60);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Donghua Catalog API',
      version,
      description:
        'A free, public, read-only JSON API over an Indonesian donghua catalog, scraped on demand. ' +
        `Each IP may make ${config.RATE_LIMIT_MAX} requests per ${windowMinutes} minutes on /catalog/*; ` +
        'past that the answer is 429 with Retry-After. Answers are cached per endpoint; ' +
        `an answer past its freshness may still be served for up to ${config.STALE_WHILE_REVALIDATE_S} seconds, marked X-Cache: STALE.`,
      contact: { name: 'Report Center', url: `${origin}/report` },
      license: { name: license, identifier: license },
    },
    servers: [{ url: origin }],
    // A public API: no operation asks for credentials.
    security: [],
    tags: [
      { name: 'catalog', description: 'The catalog, read from the upstream site' },
      { name: 'feeds', description: 'New episodes as Atom, RSS and JSON Feed, for feed readers and bots' },
      { name: 'export', description: "The whole catalog in one download, from this service's crawler" },
      { name: 'reports', description: 'Reports to the maintainers' },
    ],
    paths: {
      ...Object.fromEntries(endpoints.map((endpoint) => [endpoint.path, { get: catalogOperation(endpoint, config) }])),
      ...Object.fromEntries(feeds.map((feed) => [feedOpenApiPath(feed), { get: feedOperation(feed, config) }])),
      ...Object.fromEntries(EXPORT_FILES.map((file) => [file.path, { get: exportOperation(file) }])),
      '/api/reports': { post: reportOperation(config) },
    },
    components: { schemas: componentSchemas(), headers: headerComponents(config) },
  };
}

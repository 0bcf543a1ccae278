import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { z } from 'zod';
import type { AnswerCall, NoSideEffects } from '../catalog/answer.js';
import { CatalogExport } from '../contract/catalogExport.js';
import { catalogNotReady } from '../crawler/errors.js';
import type { CatalogIndex, CatalogView } from '../crawler/localCatalog.js';

const gzip = promisify(gzipCallback);

// The three files of /export: built at most once per change of the local catalog (each synced
// view), on the first request after it, and compressed once per build; a request sends the bytes
// as they are. The .json names its schema by this service's own origin, so it is built per origin:
// PUBLIC_URL makes that one. Without it the origin is the request's Host, which any client chooses:
// the first few Hosts after a change get their own build, and every later one the one build that
// names the schema by its path alone, so that a new Host per request costs no build and no client's
// Host ends up in another client's document. The .jsonl and the schema are the same for all.

export type ExportFileName = 'catalog.json' | 'catalog.jsonl' | 'catalog.schema.json';

export interface ExportFile {
  body: Buffer;
  gzip: Buffer;
  /** Weak: the identity and the gzip bytes are the same document. */
  etag: string;
  lastModified: string;
  contentType: string;
}

export interface CatalogFiles {
  /**
   * The file as last built (building it first if this origin has not asked since the last change);
   * CatalogNotReadyError when there is nothing to export. Without side effects: the file as already
   * built for this origin, if it is.
   */
  file: AnswerCall<[name: ExportFileName, origin: string], ExportFile, Promise<ExportFile>>;
}

/** Origins whose .json names them, per change: PUBLIC_URL needs one; a few cover the Host names a deployment answers to. */
const ORIGINS_NAMED = 4;
/** The key of the build for every origin past them: its `$schema` is the path alone. */
const PATH_ONLY = '';

const MEDIA_TYPES: Record<ExportFileName, string> = {
  'catalog.json': 'application/json; charset=utf-8',
  'catalog.jsonl': 'application/jsonl; charset=utf-8',
  'catalog.schema.json': 'application/schema+json; charset=utf-8',
};

/** The JSON Schema (2020-12) of catalog.json, from the zod schema that types the entry. */
function catalogJsonSchema(): object {
  return z.toJSONSchema(CatalogExport, { target: 'draft-2020-12', io: 'output' });
}

async function fileOf(name: ExportFileName, body: Buffer, lastModified: string): Promise<ExportFile> {
  return {
    body,
    gzip: await gzip(body),
    etag: `W/"${createHash('sha1').update(body).digest('base64url')}"`,
    lastModified,
    contentType: MEDIA_TYPES[name],
  };
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const COMMA = Buffer.from(',');

export function createCatalogFiles({
  index,
  enabled,
  source,
}: {
  index: CatalogIndex;
  enabled: boolean;
  source: () => string;
}): CatalogFiles {
  // Per view: the .jsonl, and the .json of each origin asked for, each built once.
  let jsonl: Promise<ExportFile> | undefined;
  let byOrigin = new Map<string, Promise<ExportFile>>();
  let schema: Promise<ExportFile> | undefined;
  // Each build's file once it is done, for a lookup without side effects.
  const done = new WeakMap<Promise<ExportFile>, ExportFile>();
  const tracked = (build: Promise<ExportFile>) => {
    build.then(
      (file) => done.set(build, file),
      () => undefined,
    );
    return build;
  };

  function buildJson(current: CatalogView, origin: string): Promise<ExportFile> {
    const entries: Buffer[] = [];
    current.entries.forEach((entry, position) => {
      if (position > 0) entries.push(COMMA);
      entries.push(entry);
    });
    const head = JSON.stringify({
      $schema: `${origin}/export/catalog.schema.json`,
      source: source(),
      generatedAt: current.updatedAt,
      complete: current.complete,
      count: current.entries.length,
    });
    const body = Buffer.concat([
      Buffer.from(`${head.slice(0, -1)},"series":[`),
      ...entries,
      Buffer.from('],"removed":'),
      json(current.removed),
      Buffer.from('}'),
    ]);
    return tracked(fileOf('catalog.json', body, new Date(current.updatedAt).toUTCString()));
  }

  function buildJsonl(current: CatalogView): Promise<ExportFile> {
    const lines: Buffer[] = [];
    const newline = Buffer.from('\n');
    for (const entry of current.entries) lines.push(entry, newline);
    return tracked(fileOf('catalog.jsonl', Buffer.concat(lines), new Date(current.updatedAt).toUTCString()));
  }

  // Each change drops what was built; the first request for a file builds it (concurrent ones share
  // the build), so that a crawl pass that changes the catalog every second costs no build at all
  // until someone downloads.
  index.onSynced(() => {
    // Dated like the catalog it describes, so that every instance sends the same Last-Modified.
    schema = undefined;
    jsonl = undefined;
    byOrigin = new Map();
  });

  /** The .json build an origin gets: its own while it is among the first ORIGINS_NAMED since the change, else the path-only one. */
  function buildKeyOf(origin: string): string {
    if (byOrigin.has(origin)) return origin;
    const named = byOrigin.size - (byOrigin.has(PATH_ONLY) ? 1 : 0);
    return named < ORIGINS_NAMED ? origin : PATH_ONLY;
  }

  async function build(name: ExportFileName, origin: string): Promise<ExportFile> {
    const current = index.view();
    const refusal = catalogNotReady(enabled, current?.entries.length ?? 0);
    // No view yet holds nothing, so the refusal is set whenever `current` is missing.
    if (refusal !== null || current === undefined) throw refusal!;
    if (name === 'catalog.schema.json') {
      schema ??= tracked(fileOf(name, json(catalogJsonSchema()), new Date(current.updatedAt).toUTCString()));
      return schema;
    }
    if (name === 'catalog.jsonl') {
      jsonl ??= buildJsonl(current);
      return jsonl;
    }
    const key = buildKeyOf(origin);
    let built = byOrigin.get(key);
    if (built === undefined) {
      built = buildJson(current, key);
      byOrigin.set(key, built);
    }
    return built;
  }

  function file(name: ExportFileName, origin: string, options: NoSideEffects): ExportFile | undefined;
  function file(name: ExportFileName, origin: string): Promise<ExportFile>;
  function file(name: ExportFileName, origin: string, options?: NoSideEffects): ExportFile | Promise<ExportFile> | undefined {
    if (options === undefined) return build(name, origin);
    if (!enabled) return undefined;
    const built = name === 'catalog.schema.json' ? schema : name === 'catalog.jsonl' ? jsonl : byOrigin.get(buildKeyOf(origin));
    return built && done.get(built);
  }

  return { file };
}

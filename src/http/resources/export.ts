import type { IncomingMessage } from 'node:http';
import type { NoSideEffects } from '../../catalog/answer.js';
import accepts from 'accepts';
import type { CatalogFiles, ExportFile, ExportFileName } from '../../export/catalogFiles.js';
import type { Representation } from '../apiAnswer.js';
import { MethodNotAllowedError } from '../errors.js';
import { originOf, variesByHost, type OriginRule } from '../requestOrigin.js';
import type { ApiResource } from './resource.js';

const FILES: ReadonlySet<string> = new Set<ExportFileName>(['catalog.json', 'catalog.jsonl', 'catalog.schema.json']);
const METHODS = 'GET, HEAD';
/** The export changes at most once per crawled page; a minute of reuse spares clients and the quota alike. */
const MAX_AGE_S = 60;
const FILE_PATH = /^\/export\/([^/]+)$/i;

/**
 * /export/catalog.{json,jsonl,schema.json}: the local catalog's files as built (gzip when the
 * client takes it), with ETag and Last-Modified. The .json names this service's origin, so it is
 * built per origin.
 */
export function exportResource(files: CatalogFiles, origin: OriginRule): ApiResource<ExportFileName> {
  const hostVaries = variesByHost(origin);
  const representation = (name: ExportFileName, file: ExportFile, req: IncomingMessage): Representation => {
    // Express's own negotiation (req.acceptsEncodings), q-values included.
    const gzipped = accepts(req).encoding('gzip', 'identity') === 'gzip';
    const vary = hostVaries && name === 'catalog.json' ? 'Accept-Encoding, Host' : 'Accept-Encoding';
    return {
      body: gzipped ? file.gzip : file.body,
      contentType: file.contentType,
      etag: file.etag,
      lastModified: file.lastModified,
      headers: ['Cache-Control', `public, max-age=${MAX_AGE_S}`, 'Vary', vary, ...(gzipped ? ['Content-Encoding', 'gzip'] : [])],
      cacheStatus: 'HIT',
    };
  };
  function answer(name: ExportFileName, req: IncomingMessage, pathname: string, options: NoSideEffects): Representation | undefined;
  function answer(name: ExportFileName, req: IncomingMessage): Promise<Representation>;
  function answer(
    name: ExportFileName,
    req: IncomingMessage,
    _pathname?: string,
    options?: NoSideEffects,
  ): Representation | Promise<Representation> | undefined {
    if (options === undefined) return files.file(name, originOf(req, origin)).then((file) => representation(name, file, req));
    const held = files.file(name, originOf(req, origin), options);
    return held && representation(name, held, req);
  }
  return {
    segment: 'export',
    resolve(method, pathname) {
      const name = FILE_PATH.exec(pathname)?.[1];
      if (name === undefined || !FILES.has(name)) return undefined;
      const route = `/export/${name}`;
      if (method !== 'GET' && method !== 'HEAD') return { route, error: new MethodNotAllowedError(method, pathname, METHODS) };
      return { route, request: name as ExportFileName };
    },
    answer,
  };
}

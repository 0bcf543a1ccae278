import { Router, type Request, type Response } from 'express';
import fresh from 'fresh';
import type { CatalogFiles, ExportFileName } from '../../export/catalogFiles.js';
import { CATALOG_HEADERS, setHeaders } from '../catalogAnswer.js';
import { MethodNotAllowedError, RouteNotFoundError } from '../errors.js';
import type { Quota } from '../middleware/rateLimit.js';
import { isConditional } from './feeds.js';

const FILES = new Set<string>(['catalog.json', 'catalog.jsonl', 'catalog.schema.json']);
const METHODS = 'GET, HEAD';
/** The export changes at most once per crawled page; a minute of reuse spares clients and the quota alike. */
const MAX_AGE_S = 60;

export interface ExportRouteDeps {
  files: CatalogFiles;
  quota: Quota;
  /** This service's origin as links name it (PUBLIC_URL, else the request's). */
  origin: (req: Request) => string;
  /** Whether that origin comes from the request's Host (no PUBLIC_URL): the .json, which names it, then varies by Host. */
  variesByHost: boolean;
}

/**
 * /export/catalog.{json,jsonl,schema.json}: the built bytes as they are (gzip when the client takes
 * it), ETag and Last-Modified. A download counts as one request of the API quota; a conditional
 * request answered 304 is free, so it is counted only once its answer is known not to be a 304.
 */
export function createExportRouter({ files, quota, origin, variesByHost }: ExportRouteDeps): Router {
  const router = Router();
  router.use('/export', async (req: Request, res: Response) => {
    setHeaders(res, CATALOG_HEADERS);
    let counted: string[] | undefined;
    const count = async () => {
      if (counted !== undefined) return;
      const { headers, refused } = await quota.count(req);
      setHeaders(res, headers);
      counted = headers;
      if (refused !== undefined) throw refused;
    };
    const path = req.baseUrl + req.path;
    const name = path.slice('/export/'.length);
    if (!isConditional(req) || !FILES.has(name)) await count();
    if (!FILES.has(name)) throw new RouteNotFoundError(req.method, path);
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new MethodNotAllowedError(req.method, path, METHODS);
    res.locals.route = `/export/${name}`;
    let file;
    try {
      file = await files.file(name as ExportFileName, origin(req));
    } catch (error) {
      await count();
      throw error;
    }
    const vary = variesByHost && name === 'catalog.json' ? 'Accept-Encoding, Host' : 'Accept-Encoding';
    const head = ['ETag', file.etag, 'Last-Modified', file.lastModified, 'Cache-Control', `public, max-age=${MAX_AGE_S}`, 'Vary', vary];
    if (fresh(req.headers, { etag: file.etag, 'last-modified': file.lastModified })) {
      res.writeHead(304, [...head, ...(counted ?? (await quota.peek(req)))]);
      res.end();
      return;
    }
    await count();
    const gzipped = req.acceptsEncodings('gzip', 'identity') === 'gzip';
    const body = gzipped ? file.gzip : file.body;
    res.writeHead(200, [...head, 'Content-Type', file.contentType, 'Content-Length', String(body.length), ...(gzipped ? ['Content-Encoding', 'gzip'] : [])]);
    res.end(body);
  });
  return router;
}

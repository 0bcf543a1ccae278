import { Router } from 'express';
import { buildOpenApiDocument } from '../../openapi/document.js';
import type { Config } from '../../config/schema.js';
import { requestOrigin } from '../requestOrigin.js';

// A reserved name (RFC 2606) stands for the request's origin in the document built at start.
const ORIGIN_MARK = 'https://origin.invalid';

/** GET /openapi.json, built once from the endpoint table, the schemas and the configuration; only its origin is the request's. */
export function createOpenApiRouter(config: Config): Router {
  const pieces = JSON.stringify(buildOpenApiDocument(config, ORIGIN_MARK)).split(ORIGIN_MARK);
  const router = Router();
  router.get('/openapi.json', (req, res) => {
    // The Host header is the client's text: escaped as a JSON string's content, so it cannot break out of one.
    const origin = JSON.stringify(requestOrigin(req)).slice(1, -1);
    // Any site's API tooling may load it.
    res.set('Access-Control-Allow-Origin', '*').type('application/json; charset=utf-8').send(pieces.join(origin));
  });
  return router;
}

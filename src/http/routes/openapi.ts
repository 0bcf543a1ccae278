import { Router } from 'express';
import { buildOpenApiDocument } from '../../catalog/openapi.js';
import type { Config } from '../../config/schema.js';

/** GET /openapi.json, built once from the endpoint table, the schemas and the configuration. */
export function createOpenApiRouter(config: Config): Router {
  const document = JSON.stringify(buildOpenApiDocument(config));
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    // Any site's API tooling may load it.
    res.set('Access-Control-Allow-Origin', '*').type('application/json; charset=utf-8').send(document);
  });
  return router;
}

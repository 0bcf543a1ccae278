import { Router } from 'express';
import type { Config } from '../../config/schema.js';
import { buildOpenApiDocument } from '../../openapi/document.js';
import { builtOncePerKey, OriginBodies } from '../builtPages.js';
import { originOf, originRuleOf, variesByHost } from '../requestOrigin.js';

/** GET /openapi.json, built once from the endpoint table, the schemas and the configuration, on the service's origin (builtPages.ts). */
export function createOpenApiRouter(config: Config): Router {
  const router = Router();
  const document = builtOncePerKey<OriginBodies>();
  router.get('/openapi.json', async (req, res) => {
    const rule = originRuleOf(req.app);
    const bodies = await document('openapi', () =>
      OriginBodies.build(rule, (origin) => JSON.stringify(buildOpenApiDocument(config, origin))),
    );
    if (variesByHost(rule)) res.vary('Host');
    // Any site's API tooling may load it.
    res
      .set('Access-Control-Allow-Origin', '*')
      .type('application/json; charset=utf-8')
      .send(bodies.for(originOf(req, rule)));
  });
  return router;
}

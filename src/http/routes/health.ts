import { Router } from 'express';
import { endpoints } from '../../catalog/endpoints.js';

/** Liveness and a machine-readable index of the API; neither touches the upstream. */
export function createServiceRouter(): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) });
  });
  router.get('/', (_req, res) => {
    res.json({
      name: 'Donghua Catalog API',
      description: 'Read-only JSON API over an Indonesian donghua catalog. All endpoints are GET.',
      endpoints: endpoints.map(({ path, summary }) => ({ path, summary })),
    });
  });
  return router;
}

import { Router } from 'express';
import type { Metrics } from '../../metrics.js';
import type { ResilientUpstreamClient } from '../../upstream/client.js';

/** Liveness, the upstream's health and the Prometheus metrics; none of them touches the upstream. */
export function createServiceRouter({ upstream, metrics }: { upstream: ResilientUpstreamClient; metrics: Metrics }): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) });
  });
  // What the upstream has been doing: origin, breaker, last success and failure, challenges, solver.
  router.get('/health/upstream', (_req, res) => {
    res.set('Cache-Control', 'no-store').json(upstream.status());
  });
  router.get('/metrics', async (_req, res) => {
    res.set('Cache-Control', 'no-store').type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}

import { Router } from 'express';
import type { Metrics } from '../../metrics.js';
import type { RedisConnection } from '../../redis/connection.js';
import type { ResilientUpstreamClient } from '../../upstream/client.js';
import type { SitePaths } from '../../upstream/sitePaths.js';
import { pacedBuild } from '../builtPages.js';

// /metrics is public and costs milliseconds to build (every label set of every histogram): built at
// most this often, however many scrapers or flooders ask, each answer built after it was asked for.
const METRICS_BUILT_AT_MOST_EVERY_MS = 100;

/** Liveness, the upstream's health and the Prometheus metrics; none of them touches the upstream. */
export function createHealthRouter({
  upstream,
  paths,
  metrics,
  redis,
}: {
  upstream: ResilientUpstreamClient;
  paths: SitePaths;
  metrics: Metrics;
  redis?: RedisConnection | undefined;
}): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) });
  });
  // What the upstream has been doing: origin, breaker, last success and failure, challenges, solver;
  // the site's paths, how and when learned; and the shared Redis: "off" without REDIS_URL, else
  // "connecting", "up" or "down".
  router.get('/health/upstream', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ ...upstream.status(), paths: paths.status(), redis: redis?.state() ?? 'off' });
  });
  const exposition = pacedBuild(METRICS_BUILT_AT_MOST_EVERY_MS, async () => Buffer.from(await metrics.registry.metrics()));
  router.get('/metrics', async (_req, res) => {
    res
      .set('Cache-Control', 'no-store')
      .type(metrics.registry.contentType)
      .send(await exposition());
  });
  return router;
}

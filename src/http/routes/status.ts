import { Router } from 'express';
import { statusView } from '../../pages/statusView.js';
import type { CatalogState } from '../../crawler/localCatalog.js';
import type { StatusMonitor } from '../../status/monitor.js';
import type { SitePathsStatus } from '../../upstream/sitePaths.js';
import { builtAtMostEvery, renderView } from '../builtPages.js';

/**
 * How long a built status page or /health/history body is served before the next request builds
 * it again: both are public and unmetered, so a flood of them costs one build per period rather
 * than one per request, and stays off everyone else's latency.
 * @internal exported for the tests: the status tests move their clock to either side of it.
 */
export const STATUS_REBUILT_AFTER_MS = 5_000;

/** The status page and its data as JSON; outside /catalog, so neither counts against the quota. */
export function createStatusRouter(
  monitor: StatusMonitor,
  now: () => number,
  catalog: () => CatalogState,
  sitePaths: () => SitePathsStatus,
): Router {
  const router = Router();
  const page = builtAtMostEvery<Buffer>(STATUS_REBUILT_AFTER_MS, now);
  const json = builtAtMostEvery<Buffer>(STATUS_REBUILT_AFTER_MS, now);
  router.get('/status', async (req, res) => {
    const html = await page(async () =>
      Buffer.from(await renderView(req.app, 'status', statusView(await monitor.history(), catalog(), sitePaths()))),
    );
    res.set('Cache-Control', 'no-store').type('html').send(html);
  });
  router.get('/health/history', async (_req, res) => {
    const body = await json(async () => Buffer.from(JSON.stringify(await monitor.history())));
    res.set('Cache-Control', 'no-store').type('json').send(body);
  });
  return router;
}

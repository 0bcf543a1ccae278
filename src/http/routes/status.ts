import { Router } from 'express';
import { statusView } from '../../pages/statusView.js';
import type { StatusMonitor } from '../../status/monitor.js';

/** The status page and its data as JSON; outside /catalog, so neither counts against the quota. */
export function createStatusRouter(monitor: StatusMonitor): Router {
  const router = Router();
  router.get('/status', async (_req, res) => {
    res.set('Cache-Control', 'no-store').render('status', statusView(await monitor.history()));
  });
  router.get('/health/history', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await monitor.history());
  });
  return router;
}

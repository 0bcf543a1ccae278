import { Router, type Application } from 'express';
import { statusView } from '../../pages/statusView.js';
import type { CatalogState } from '../../crawler/localCatalog.js';
import type { StatusMonitor } from '../../status/monitor.js';

/**
 * How long a built status page or /health/history body is served before the next request builds
 * it again: both are public and unmetered, so a flood of them costs one build per period rather
 * than one per request, and stays off everyone else's latency.
 */
export const STATUS_REBUILT_AFTER_MS = 5_000;

/**
 * The last value `build` produced, built again on the first call `periodMs` after it was started;
 * concurrent calls share one build. A failed build is not kept, so the next call tries again.
 */
export function builtAtMostEvery<T>(periodMs: number, now: () => number): (build: () => Promise<T>) => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return (build) => {
    const at = now();
    // A clock that went back (a test's, or a system clock set back) starts a new period too.
    if (last === undefined || at - last.at >= periodMs || at < last.at) {
      const value = build();
      const current = { at, value };
      last = current;
      value.catch(() => {
        if (last === current) last = undefined;
      });
    }
    return last.value;
  };
}

function render(app: Application, view: string, locals: object): Promise<string> {
  return new Promise((resolve, reject) => app.render(view, locals, (error, html) => (error ? reject(error) : resolve(html))));
}

/** The status page and its data as JSON; outside /catalog, so neither counts against the quota. */
export function createStatusRouter(monitor: StatusMonitor, now: () => number, catalog: () => CatalogState): Router {
  const router = Router();
  const page = builtAtMostEvery<string>(STATUS_REBUILT_AFTER_MS, now);
  const json = builtAtMostEvery<string>(STATUS_REBUILT_AFTER_MS, now);
  router.get('/status', async (req, res) => {
    const html = await page(async () => render(req.app, 'status', statusView(await monitor.history(), catalog())));
    res.set('Cache-Control', 'no-store').type('html').send(html);
  });
  router.get('/health/history', async (_req, res) => {
    const body = await json(async () => JSON.stringify(await monitor.history()));
    res.set('Cache-Control', 'no-store').type('json').send(body);
  });
  return router;
}

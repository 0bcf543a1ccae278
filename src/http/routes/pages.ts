import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { Config } from '../../config/schema.js';
import { docsView, TRY_PATH_PREFIX, tryItUrl } from '../../pages/docsView.js';
import { feedDiscoveryLinks, feedViews } from '../../pages/feedsView.js';
import { prefillFromQuery, reportFormView, reportQuotaMessage } from '../../pages/reportView.js';
import { serviceFacts } from '../../pages/serviceFacts.js';
import { ReportInput } from '../../reports/schema.js';
import type { ReportService } from '../../reports/service.js';
import { InvalidBodyError, RateLimitedError, RouteNotFoundError } from '../errors.js';
import { closeIfBodyUnread, formBody } from '../middleware/body.js';
import { requestOrigin } from '../requestOrigin.js';
import { validateBody } from '../middleware/validateBody.js';
import { reportSender } from './reports.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The web pages: landing, API reference, and the Report Center (which works without JavaScript). */
export function createPagesRouter(config: Config, reports: ReportService, quota: RequestHandler): Router {
  const router = Router();

  router.get('/', (req, res) => {
    res.render('landing', { baseUrl: requestOrigin(req), ...serviceFacts(config), feeds: feedViews(config), alternates: feedDiscoveryLinks(config) });
  });

  router.get('/docs', (req, res) => {
    res.render('docs', docsView(config, requestOrigin(req)));
  });

  router.get(`${TRY_PATH_PREFIX}/*endpoint`, (req, res, next) => {
    const segments = (req.params as { endpoint: string[] }).endpoint;
    const target = tryItUrl(`/${segments.join('/')}`, req.query);
    if (target === null) return next();
    res.redirect(303, target);
  });

  router.get('/report', (req, res) => {
    res.render('report', reportFormView(prefillFromQuery(req.query)));
  });

  // A submission refused by the report quota is refused before its body is read (a refused sender
  // must not make us read what it sends), so the form comes back empty and says where the text is.
  const quotaUsedUp: ErrorRequestHandler = (error, req, res, next) => {
    if (!(error instanceof RateLimitedError)) return next(error);
    closeIfBodyUnread(req, res);
    res
      .status(429)
      .set('Retry-After', String(error.retryAfterSeconds))
      .render('report', reportFormView({}, [], reportQuotaMessage(error.limit, error.retryAfterSeconds)));
  };

  router.post(
    '/report',
    quota,
    formBody,
    async (req: Request, res: Response) => {
      let input: ReportInput;
      try {
        input = validateBody(ReportInput, req.body);
      } catch (error) {
        if (!(error instanceof InvalidBodyError)) throw error;
        res.status(400).render('report', reportFormView(req.body, error.details));
        return;
      }
      const { id } = await reports.submit(input, reportSender(req));
      // 303: the browser follows with a GET, so reloading the confirmation never sends the report twice.
      res.redirect(303, `/report/sent/${id}`);
    },
    quotaUsedUp,
  );

  // Only a report that was stored has a confirmation page.
  router.get('/report/sent/:id', async (req, res) => {
    if (!UUID.test(req.params.id) || !(await reports.exists(req.params.id))) throw new RouteNotFoundError(req.method, req.path);
    res.render('report-sent', { id: req.params.id });
  });

  return router;
}

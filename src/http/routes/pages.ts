import { Router, type Application, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { Config } from '../../config/schema.js';
import { docsView, TRY_PATH_PREFIX, tryItUrl } from '../../pages/docsView.js';
import { feedDiscoveryLinks, feedViews } from '../../pages/feedsView.js';
import { prefillFromQuery, reportFormView, reportQuotaMessage, type ReportFormValues } from '../../pages/reportView.js';
import { serviceFacts } from '../../pages/serviceFacts.js';
import { ReportInput } from '../../reports/schema.js';
import type { ReportService } from '../../reports/service.js';
import { builtAtMostEvery, builtOncePerKey, MarkedText, OriginBodies, renderView } from '../builtPages.js';
import { InvalidBodyError, RateLimitedError, RouteNotFoundError } from '../errors.js';
import { closeIfBodyUnread, formBody } from '../middleware/body.js';
import { sameOriginForm } from '../middleware/sameOriginForm.js';
import { originOf, originRuleOf, variesByHost } from '../requestOrigin.js';
import { parseBody } from '../validation.js';
import { reportSender } from './reports.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Stands for the report id in the confirmation page built once: no escaping changes it, or a UUID.
const REPORT_ID_MARK = 'report-id.invalid';

/** How long the landing page, which shows the upstream's live status, is served before it is built again (as long as the status page). */
const LANDING_REBUILT_AFTER_MS = 5_000;

/** Sends a page built on the service's origin: its copy for the request's origin, and `Vary: Host` unless PUBLIC_URL fixes the origin. */
async function sendOriginPage(req: Request, res: Response, bodies: (app: Application) => Promise<OriginBodies>): Promise<void> {
  const rule = originRuleOf(req.app);
  if (variesByHost(rule)) res.vary('Host');
  res.type('html').send((await bodies(req.app)).for(originOf(req, rule)));
}

/**
 * The web pages: landing, API reference, and the Report Center (which works without JavaScript).
 * Each is built once per change and sent as bytes (builtPages.ts): at its first request, the
 * landing page again after LANDING_REBUILT_AFTER_MS. Only a report form sent back with its errors,
 * behind the report quota, is built per request.
 */
export function createPagesRouter(config: Config, reports: ReportService, quota: RequestHandler, now: () => number): Router {
  const router = Router();
  const landing = builtAtMostEvery<OriginBodies>(LANDING_REBUILT_AFTER_MS, now);
  const reference = builtOncePerKey<OriginBodies>();
  const forms = builtOncePerKey<Buffer>();
  const sent = builtOncePerKey<MarkedText>();

  router.get('/', (req, res) =>
    sendOriginPage(req, res, (app) =>
      landing(() =>
        OriginBodies.build(originRuleOf(app), (baseUrl) =>
          renderView(app, 'landing', {
            baseUrl,
            ...serviceFacts(config),
            feeds: feedViews(config),
            alternates: feedDiscoveryLinks(config),
          }),
        ),
      ),
    ),
  );

  router.get('/docs', (req, res) =>
    sendOriginPage(req, res, (app) =>
      reference('docs', () => OriginBodies.build(originRuleOf(app), (baseUrl) => renderView(app, 'docs', docsView(config, baseUrl)))),
    ),
  );

  router.get(`${TRY_PATH_PREFIX}/*endpoint`, (req, res, next) => {
    const segments = req.params.endpoint;
    const target = tryItUrl(`/${segments.join('/')}`, req.query);
    if (target === null) return next();
    res.redirect(303, target);
  });

  // The prefill takes only the form's own choices, so there are few forms to keep.
  router.get('/report', async (req, res) => {
    const prefill = prefillFromQuery(req.query);
    const key = `${prefill.endpoint ?? ''}\n${prefill.category ?? ''}`;
    res.type('html').send(await forms(key, async () => Buffer.from(await renderView(req.app, 'report', reportFormView(prefill)))));
  });

  // A submission refused by the report quota is refused before its body is read (a refused sender
  // must not make us read what it sends), so the form comes back empty and says where the text is.
  const quotaUsedUp: ErrorRequestHandler = (error, req, res, next) => {
    if (!(error instanceof RateLimitedError)) return next(error);
    closeIfBodyUnread(req, res);
    const message = reportQuotaMessage(error.limit, error.retryAfterSeconds);
    // One form per message (it names whole minutes): a sender flooding past the quota costs no render.
    forms(`429\n${message}`, async () => Buffer.from(await renderView(req.app, 'report', reportFormView({}, [], message))))
      .then((html) => res.status(429).set('Retry-After', String(error.retryAfterSeconds)).type('html').send(html))
      .catch(next);
  };

  router.post(
    '/report',
    // Before the quota: another site's post must not use up its visitor's.
    sameOriginForm,
    quota,
    formBody,
    async (req: Request, res: Response) => {
      let input: ReportInput;
      try {
        input = parseBody(ReportInput, req.body);
      } catch (error) {
        if (!(error instanceof InvalidBodyError)) throw error;
        res.status(400).render('report', reportFormView(req.body as ReportFormValues, error.details));
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
    const page = await sent(
      'report-sent',
      async () => new MarkedText(await renderView(req.app, 'report-sent', { id: REPORT_ID_MARK }), REPORT_ID_MARK),
    );
    res.type('html').send(page.with(req.params.id));
  });

  return router;
}

import { Router, type Request, type RequestHandler } from 'express';
import { ReportInput } from '../../reports/schema.js';
import type { ReportSender, ReportService } from '../../reports/service.js';
import { MethodNotAllowedError } from '../errors.js';
import { jsonBody } from '../middleware/body.js';
import { parseBody } from '../validation.js';
import { requestAddress } from '../requestOrigin.js';

/** The sender as far as a report keeps it: the client IP (per `trust proxy`) and its user agent. */
export function reportSender(req: Request): ReportSender {
  return { ip: requestAddress(req), userAgent: req.get('user-agent') };
}

/** POST /api/reports: the Report Center for clients, as JSON, with the form's validation. */
export function createReportsApiRouter(reports: ReportService, quota: RequestHandler): Router {
  const router = Router();
  router.post('/api/reports', quota, jsonBody, async (req, res) => {
    const input = parseBody(ReportInput, req.body);
    const created = await reports.submit(input, reportSender(req));
    res.status(201).set('Cache-Control', 'no-store').json({ status: 'success', data: created });
  });
  router.all('/api/reports', (req) => {
    throw new MethodNotAllowedError(req.method, '/api/reports', 'POST');
  });
  return router;
}

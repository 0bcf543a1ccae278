import { Router } from 'express';
import { ReportFilter } from '../../reports/filter.js';
import type { ReportService } from '../../reports/service.js';
import { requireBearerToken } from '../middleware/adminAuth.js';
import { parseQuery } from '../validation.js';

/** Operator endpoints; mounted only when ADMIN_TOKEN is set, so without it /admin/* is a plain 404. */
export function createAdminRouter(reports: ReportService, token: string): Router {
  const router = Router();
  router.use('/admin', requireBearerToken(token), (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.get('/admin/reports', async (req, res) => {
    const filter = parseQuery(ReportFilter, req.query);
    const { reports: list, skippedLines } = await reports.list(filter);
    res.json({ status: 'success', data: { reports: list }, meta: { count: list.length, skippedLines } });
  });
  return router;
}

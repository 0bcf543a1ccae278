import type { RequestHandler } from 'express';
import { CrossSiteFormError } from '../errors.js';
import { originOf, originRuleOf } from '../requestOrigin.js';

/**
 * Form posts from this service's own pages only, as the browser vouches for them: `Sec-Fetch-Site`
 * same-origin (or none: typed by the user) where the browser sends it, else an `Origin` that is
 * ours (PUBLIC_URL, or the request's own). Sec-Fetch-Site goes first because our pages' no-referrer
 * policy makes Chromium send `Origin: null` with their own form posts. Another site's page could
 * otherwise post reports in its visitors' names (and use up their quota); no cookie is needed for
 * the check. A client that sends neither header is no browser another site can drive.
 */
export const sameOriginForm: RequestHandler = (req, _res, next) => {
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  const crossSite =
    site !== undefined
      ? site !== 'same-origin' && site !== 'none'
      : origin !== undefined && origin !== originOf(req, originRuleOf(req.app));
  next(crossSite ? new CrossSiteFormError() : undefined);
};

import type { RequestHandler } from 'express';
import { isCatalogPath } from '../catalogRequest.js';

// What a cross-origin script may send to /catalog: revalidation (If-None-Match), its own request id,
// and the cache directives browsers add on a reload; the CORS-safelisted headers need no listing.
const ALLOWED_HEADERS = 'If-None-Match, X-Request-Id, Cache-Control, Pragma';
// Browsers cap how long they keep a preflight (Chromium at 2 hours); this asks for the longest.
const MAX_AGE_SECONDS = 86_400;

/**
 * Answers the browser's CORS preflight (OPTIONS with Access-Control-Request-Method) for /catalog/*
 * with 204, before the quota: a preflight is the browser asking, not the client's request, so it is
 * never counted. Any other OPTIONS goes on to the routes (405).
 */
export const catalogPreflight: RequestHandler = (req, res, next) => {
  if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined || !isCatalogPath(req.path)) return next();
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
  res.setHeader('Access-Control-Max-Age', String(MAX_AGE_SECONDS));
  res.status(204).end();
};

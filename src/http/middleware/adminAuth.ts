import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { UnauthorizedError } from '../errors.js';

// Both sides are hashed first so they have equal lengths, as timingSafeEqual needs, and the
// comparison takes the same time whatever was sent.
const digest = (text: string) => createHash('sha256').update(text).digest();

/** Lets a request through only with `Authorization: Bearer <token>`, compared in constant time. */
export function requireBearerToken(token: string): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => {
    const given = /^Bearer +(\S+) *$/i.exec(req.get('authorization') ?? '')?.[1];
    if (given !== undefined && timingSafeEqual(digest(given), expected)) return next();
    next(new UnauthorizedError('Missing or wrong bearer token'));
  };
}

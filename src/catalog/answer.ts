import type { StaleReason } from '../contract/schemas.js';
import type { CachedAnswer } from './cache.js';

/** An answer plus what the upstream did to produce it (logged on a miss); none for an answer from the local catalog. */
export interface CatalogAnswer extends CachedAnswer {
  upstream?: { url: string; status: number; attempts: number; durationMs: number };
}

/**
 * A kept answer as it is served in place of a failed fetch: the same data, ETag, fetchedAt and TTL,
 * with `meta.stale` saying since when and why. The body's last member is its meta object (the
 * service writes `…,"meta":{…}}`), so the stale facts go in before its two closing braces. The
 * ETag stays: it is weak and covers the data, which is the same; X-Cache and Age say the rest.
 */
export function staleAnswer(answer: CatalogAnswer, reason: StaleReason): CatalogAnswer {
  const stale = JSON.stringify({ since: new Date(answer.fetchedAt).toISOString(), reason });
  const body = Buffer.concat([answer.body.subarray(0, answer.body.length - 2), Buffer.from(`,"stale":${stale}}}`)]);
  return { ...answer, body };
}

import type { StaleReason } from '../contract/schemas.js';

/**
 * A catalog answer as the cache holds it, built once per upstream fetch and sent as is on every
 * hit: the bytes to send and what Age, freshness and 304s need.
 */
export interface CatalogAnswer {
  body: Buffer;
  etag: string;
  /** When the upstream page was fetched (ms since epoch); Age counts from here. */
  fetchedAt: number;
  ttlSeconds: number;
}

/** The flag of a lookup for a conditional request the door has not counted (AnswerCall). */
export interface NoSideEffects {
  sideEffects: false;
}

/**
 * One call for an answer, with a flag for a conditional request the door has not counted:
 * `call(...args, { sideEffects: false })` is what is held now, synchronously, or undefined; it starts
 * nothing (no fetch, refresh, retry or build) and counts and keeps nothing. `call(...args)` answers a
 * counted request.
 */
export interface AnswerCall<Args extends unknown[], Held, Answered> {
  (...args: [...Args, options: NoSideEffects]): Held | undefined;
  (...args: Args): Answered;
}

/** What the upstream did to produce an answer fetched here: logged with the miss that waited for it. */
export interface UpstreamFacts {
  url: string;
  status: number;
  attempts: number;
  durationMs: number;
}

/**
 * A kept answer as it is served in place of a failed fetch: the same data, ETag, fetchedAt and TTL,
 * with `meta.stale` saying since when and why. The body's last member is its meta object (answerBody.ts
 * writes `…,"meta":{…}}`), so the stale facts go in before its two closing braces. The
 * ETag stays: it is weak and covers the data, which is the same; X-Cache and Age say the rest.
 */
export function staleAnswer(answer: CatalogAnswer, reason: StaleReason): CatalogAnswer {
  const stale = JSON.stringify({ since: new Date(answer.fetchedAt).toISOString(), reason });
  const body = Buffer.concat([answer.body.subarray(0, answer.body.length - 2), Buffer.from(`,"stale":${stale}}}`)]);
  return { ...answer, body };
}

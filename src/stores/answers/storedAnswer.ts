import { z } from 'zod';
import type { CatalogAnswer } from '../../catalog/answer.js';

// One stored form of an answer for every place that keeps one (Redis, the DATA_DIR file): one line
// of JSON with its ETag, fetchedAt and TTL, then the ready-to-send bytes as they are (JSON never
// holds a raw newline, so the first newline ends the header). Answers stored with the upstream's
// facts in the header (as they once were) read the same: the parse drops what it does not know.

const Header = z.object({
  etag: z.string(),
  fetchedAt: z.number(),
  ttlSeconds: z.number(),
});
const NEWLINE = 0x0a;

export function encodeAnswer({ body, etag, fetchedAt, ttlSeconds }: CatalogAnswer): Buffer {
  return Buffer.concat([Buffer.from(`${JSON.stringify({ etag, fetchedAt, ttlSeconds })}\n`), body]);
}

/** The answer stored as `stored`; undefined for anything not of that form. The body is a view of `stored`, not a copy. */
export function decodeAnswer(stored: Buffer): CatalogAnswer | undefined {
  const split = stored.indexOf(NEWLINE);
  if (split < 0) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(stored.subarray(0, split).toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = Header.safeParse(header);
  return parsed.success ? { ...parsed.data, body: stored.subarray(split + 1) } : undefined;
}

/** How long answers live in a store: served as cached answers, and kept for when the upstream fails. */
export interface AnswerLifetimes {
  /** How long past its TTL an answer may be served while it is refreshed (STALE_WHILE_REVALIDATE_S). */
  staleMaxMs: number;
  /** How long after its fetch an answer is kept for when the upstream fails (STALE_IF_ERROR_S). */
  keepMs: number;
}

/** Until when (ms since epoch) `answer` may be served as a cached answer: fresh, then stale while refreshed. */
export const servableUntil = (answer: Pick<CatalogAnswer, 'fetchedAt' | 'ttlSeconds'>, { staleMaxMs }: AnswerLifetimes): number =>
  answer.fetchedAt + answer.ttlSeconds * 1000 + staleMaxMs;

/** Until when a store keeps `answer`: as long as it serves as a cached answer, and at least as long as it stands in for a failure. */
export const keptUntil = (answer: Pick<CatalogAnswer, 'fetchedAt' | 'ttlSeconds'>, lifetimes: AnswerLifetimes): number =>
  Math.max(servableUntil(answer, lifetimes), answer.fetchedAt + lifetimes.keepMs);

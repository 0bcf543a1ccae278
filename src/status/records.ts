import { z } from 'zod';

// What the status history keeps, one JSON object per record: the upstream probes and the API's own
// hourly traffic. Times are milliseconds since the epoch (UTC).

/** A sparse histogram: log-scale bucket index (see buckets.ts) → how many durations fell in it. */
export const BucketCounts = z.record(z.string().regex(/^\d+$/), z.number().int().positive());
export type BucketCounts = z.infer<typeof BucketCounts>;

export const ProbeRecord = z.object({
  kind: z.literal('probe'),
  at: z.number().int(),
  outcome: z.enum(['up', 'down']),
  /** The contract's error code of a failed probe (e.g. UPSTREAM_BLOCKED); null when it worked. */
  code: z.string().nullable(),
  durationMs: z.number().nonnegative(),
  origin: z.string(),
});
export type ProbeRecord = z.infer<typeof ProbeRecord>;

/** One endpoint's answers during one hour (of one instance; records of the same hour add up). */
export const TrafficRecord = z.object({
  kind: z.literal('traffic'),
  /** Start of the hour. */
  hour: z.number().int(),
  /** The endpoint table's path: "/catalog/series/{slug}", never one slug. */
  endpoint: z.string(),
  successes: z.number().int().nonnegative(),
  /** Error answers by contract code. */
  errors: z.record(z.string(), z.number().int().positive()),
  /** Durations of answers fetched from the upstream now (X-Cache: MISS) and of cached ones (HIT, STALE). */
  miss: BucketCounts,
  hit: BucketCounts,
});
export type TrafficRecord = z.infer<typeof TrafficRecord>;

export const StatusRecord = z.discriminatedUnion('kind', [ProbeRecord, TrafficRecord]);
export type StatusRecord = z.infer<typeof StatusRecord>;

/** When a record happened, for the 90-day bound. */
export const recordTime = (record: StatusRecord): number => (record.kind === 'probe' ? record.at : record.hour);

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** How long the history is kept. */
export const HISTORY_DAYS = 90;

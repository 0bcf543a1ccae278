import type { BucketCounts } from './records.js';

// Fixed log-scale buckets for response times, so that recording one duration is one array bump and
// percentiles of any set of hours and instances are a sum of counts. Bucket i holds durations up to
// FIRST_BOUND_MS · 2^(i/STEPS_PER_DOUBLING): four steps per doubling keep a percentile within 19 %.

const FIRST_BOUND_MS = 0.5;
const STEPS_PER_DOUBLING = 4;
/** The last bucket ends at 0.5 ms · 2^20 ≈ 524 s and takes anything longer too. */
export const BUCKET_COUNT = 81;

/** @internal exported for the tests: the traffic test checks the bucket bounds directly. */
export function bucketOf(durationMs: number): number {
  if (!(durationMs > FIRST_BOUND_MS)) return 0;
  return Math.min(BUCKET_COUNT - 1, Math.ceil(Math.log2(durationMs / FIRST_BOUND_MS) * STEPS_PER_DOUBLING));
}

/** The largest duration bucket `index` holds. */
/** Counts one duration into dense counts. */
export function countDuration(counts: Uint32Array, durationMs: number): void {
  const index = bucketOf(durationMs);
  counts[index] = (counts[index] ?? 0) + 1;
}

/** @internal exported for the tests: the traffic test checks the bucket bounds directly. */
export const bucketUpperMs = (index: number): number => FIRST_BOUND_MS * 2 ** (index / STEPS_PER_DOUBLING);

/** Adds sparse stored counts into dense ones. */
export function addCounts(into: Uint32Array, counts: BucketCounts): void {
  for (const [index, count] of Object.entries(counts)) {
    const at = Number(index);
    into[at] = (into[at] ?? 0) + count;
  }
}

/** Dense counts as they are stored: only the buckets that hold something. */
export function sparseCounts(counts: Uint32Array): BucketCounts {
  const sparse: BucketCounts = {};
  counts.forEach((count, index) => {
    if (count > 0) sparse[String(index)] = count;
  });
  return sparse;
}

export const totalCount = (counts: Uint32Array): number => counts.reduce((sum, count) => sum + count, 0);

/**
 * The `fraction` percentile (0.5, 0.95) as the upper bound of the bucket that holds it, rounded to
 * 0.1 ms: "p95 ≤ this". Null without any duration.
 */
export function percentileMs(counts: Uint32Array, fraction: number): number | null {
  const total = totalCount(counts);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(fraction * total));
  let seen = 0;
  for (let index = 0; index < counts.length; index++) {
    seen += counts[index] as number;
    if (seen >= rank) return Math.round(bucketUpperMs(index) * 10) / 10;
  }
  return Math.round(bucketUpperMs(counts.length - 1) * 10) / 10;
}

import { BUCKET_COUNT, addCounts, percentileMs, totalCount } from './buckets.js';
import type { TrafficRecord } from './records.js';

// Pure sums over traffic records: any hours, any instances, since the counts simply add up.

export interface LatencySummary {
  count: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

export interface EndpointTraffic {
  endpoint: string;
  successes: number;
  errors: Record<string, number>;
  miss: LatencySummary;
  hit: LatencySummary;
}

const latency = (counts: Uint32Array): LatencySummary => ({
  count: totalCount(counts),
  p50Ms: percentileMs(counts, 0.5),
  p95Ms: percentileMs(counts, 0.95),
});

interface EndpointSum {
  successes: number;
  errors: Record<string, number>;
  miss: Uint32Array;
  hit: Uint32Array;
}

const emptySum = (): EndpointSum => ({ successes: 0, errors: {}, miss: new Uint32Array(BUCKET_COUNT), hit: new Uint32Array(BUCKET_COUNT) });

/** Per endpoint (in `order`, then any other seen), the answers of records whose hour starts in [from, to). */
export function trafficByEndpoint(
  records: readonly TrafficRecord[],
  from: number,
  to: number,
  order: readonly string[],
): EndpointTraffic[] {
  const sums = new Map<string, EndpointSum>(order.map((path) => [path, emptySum()]));
  for (const record of records) {
    if (record.hour < from || record.hour >= to) continue;
    let sum = sums.get(record.endpoint);
    if (sum === undefined) {
      sum = emptySum();
      sums.set(record.endpoint, sum);
    }
    sum.successes += record.successes;
    for (const [code, count] of Object.entries(record.errors)) sum.errors[code] = (sum.errors[code] ?? 0) + count;
    addCounts(sum.miss, record.miss);
    addCounts(sum.hit, record.hit);
  }
  return [...sums].map(([endpoint, sum]) => ({
    endpoint,
    successes: sum.successes,
    errors: sum.errors,
    miss: latency(sum.miss),
    hit: latency(sum.hit),
  }));
}

/** Over all endpoints, per hour starting at each of `hourStarts`: p50/p95 of every timed answer (misses and hits). */
export function latencyByHour(records: readonly TrafficRecord[], hourStarts: readonly number[]): LatencySummary[] {
  const byHour = new Map(hourStarts.map((hour) => [hour, new Uint32Array(BUCKET_COUNT)]));
  for (const record of records) {
    const counts = byHour.get(record.hour);
    if (counts === undefined) continue;
    addCounts(counts, record.miss);
    addCounts(counts, record.hit);
  }
  return hourStarts.map((hour) => latency(byHour.get(hour) as Uint32Array));
}

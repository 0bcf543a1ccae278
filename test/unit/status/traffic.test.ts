import { describe, expect, it } from 'vitest';
import type { RequestLogLine } from '../../../src/http/middleware/requestLog.js';
import { BUCKET_COUNT, bucketOf, bucketUpperMs, percentileMs } from '../../../src/status/buckets.js';
import type { TrafficRecord } from '../../../src/status/records.js';
import { TrafficRecorder } from '../../../src/status/traffic.js';
import { latencyByHour, trafficByEndpoint } from '../../../src/status/trafficSummary.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-20T10:00:00Z');

const line = (fields: Partial<RequestLogLine>): RequestLogLine => ({
  requestId: 'r',
  route: '/catalog/genres',
  method: 'GET',
  url: '/catalog/genres',
  status: 200,
  durationMs: 1,
  cache: 'HIT',
  ...fields,
});

describe('log-scale buckets', () => {
  it('put a duration in the first bucket whose upper bound holds it, four per doubling', () => {
    expect([bucketOf(0), bucketOf(0.5), bucketOf(0.59), bucketOf(1), bucketOf(1.01), bucketOf(1000)]).toEqual([0, 0, 1, 4, 5, 44]);
    expect(bucketUpperMs(4)).toBe(1);
    expect(bucketOf(10 * 60_000)).toBe(BUCKET_COUNT - 1);
  });

  it('give p50 and p95 as the upper bound of the bucket that holds them', () => {
    const counts = new Uint32Array(BUCKET_COUNT);
    counts[bucketOf(1)] = 90; // 1 ms
    counts[bucketOf(1000)] = 10; // 1 s
    expect(percentileMs(counts, 0.5)).toBe(1);
    expect(percentileMs(counts, 0.9)).toBe(1);
    expect(percentileMs(counts, 0.95)).toBe(1024);
    expect(percentileMs(new Uint32Array(BUCKET_COUNT), 0.5)).toBeNull();
  });
});

describe('TrafficRecorder', () => {
  it('counts per endpoint of the table: successes, errors by code, miss and hit durations', () => {
    let clock = T0;
    const recorder = new TrafficRecorder(() => clock);
    recorder.record(line({ cache: 'MISS', durationMs: 300 }));
    recorder.record(line({ cache: 'HIT', durationMs: 1 }));
    recorder.record(line({ cache: 'STALE', durationMs: 1 }));
    recorder.record(line({ status: 304, cache: 'HIT', durationMs: 0.4 }));
    recorder.record(line({ status: 429, cache: undefined, errorCode: 'RATE_LIMITED' }));
    // The door names a parametrised endpoint by its table path, a refusal of the quota too.
    recorder.record(
      line({
        route: '/catalog/seasons/{slug}',
        url: '/catalog/seasons/winter-2025?page=2',
        status: 404,
        cache: undefined,
        errorCode: 'NOT_FOUND',
      }),
    );
    recorder.record(
      line({
        route: '/catalog/seasons/{slug}',
        url: '/catalog/seasons/summer-2024',
        status: 429,
        cache: undefined,
        errorCode: 'RATE_LIMITED',
      }),
    );
    // A path that names no endpoint, or an endpoint in another form: not counted.
    recorder.record(
      line({ route: '/catalog/seasons/:slug', url: '/catalog/seasons/winter-2025', status: 404, cache: undefined, errorCode: 'NOT_FOUND' }),
    );
    // Not an endpoint: not counted.
    recorder.record(line({ route: '/status', url: '/status', cache: undefined }));
    recorder.record(line({ route: 'unmatched', url: '/catalog/nope', status: 404, cache: undefined, errorCode: 'NOT_FOUND' }));
    expect(recorder.takeFinished()).toEqual([]);
    clock = T0 + HOUR;
    expect(recorder.takeFinished()).toEqual([
      {
        kind: 'traffic',
        hour: T0,
        endpoint: '/catalog/genres',
        successes: 4,
        errors: { RATE_LIMITED: 1 },
        miss: { [String(bucketOf(300))]: 1 },
        hit: { '0': 1, '4': 2 },
      },
      {
        kind: 'traffic',
        hour: T0,
        endpoint: '/catalog/seasons/{slug}',
        successes: 0,
        errors: { NOT_FOUND: 1, RATE_LIMITED: 1 },
        miss: {},
        hit: {},
      },
    ]);
    // Handed out once.
    expect(recorder.takeFinished()).toEqual([]);
  });

  it('shows the hour under way without handing it out, and hands it out when the service stops', () => {
    const recorder = new TrafficRecorder(() => T0 + 5);
    recorder.record(line({ cache: 'HIT' }));
    const expected = [{ kind: 'traffic', hour: T0, endpoint: '/catalog/genres', successes: 1, errors: {}, miss: {}, hit: { '4': 1 } }];
    expect(recorder.unsaved()).toEqual(expected);
    expect(recorder.takeAll()).toEqual(expected);
    expect(recorder.unsaved()).toEqual([]);
  });
});

describe('traffic summaries', () => {
  const records: TrafficRecord[] = [
    {
      kind: 'traffic',
      hour: T0,
      endpoint: '/catalog/genres',
      successes: 3,
      errors: { UPSTREAM_TIMEOUT: 1 },
      miss: { '44': 1 },
      hit: { '4': 2 },
    },
    // Another instance, same hour: the counts add up.
    {
      kind: 'traffic',
      hour: T0,
      endpoint: '/catalog/genres',
      successes: 2,
      errors: { UPSTREAM_TIMEOUT: 2, RATE_LIMITED: 1 },
      miss: {},
      hit: { '4': 2 },
    },
    { kind: 'traffic', hour: T0 + HOUR, endpoint: '/catalog/home', successes: 1, errors: {}, miss: { '40': 1 }, hit: {} },
    { kind: 'traffic', hour: T0 - 30 * HOUR, endpoint: '/catalog/genres', successes: 99, errors: {}, miss: {}, hit: {} },
  ];

  it('sum per endpoint over a time range, in the table order, endpoints without answers included', () => {
    expect(trafficByEndpoint(records, T0, T0 + 2 * HOUR, ['/catalog/home', '/catalog/search', '/catalog/genres'])).toEqual([
      {
        endpoint: '/catalog/home',
        successes: 1,
        errors: {},
        miss: { count: 1, p50Ms: 512, p95Ms: 512 },
        hit: { count: 0, p50Ms: null, p95Ms: null },
      },
      {
        endpoint: '/catalog/search',
        successes: 0,
        errors: {},
        miss: { count: 0, p50Ms: null, p95Ms: null },
        hit: { count: 0, p50Ms: null, p95Ms: null },
      },
      {
        endpoint: '/catalog/genres',
        successes: 5,
        errors: { UPSTREAM_TIMEOUT: 3, RATE_LIMITED: 1 },
        miss: { count: 1, p50Ms: 1024, p95Ms: 1024 },
        hit: { count: 4, p50Ms: 1, p95Ms: 1 },
      },
    ]);
  });

  it('give every hour its p50/p95 over all endpoints, misses and hits together', () => {
    expect(latencyByHour(records, [T0, T0 + HOUR, T0 + 2 * HOUR])).toEqual([
      { count: 5, p50Ms: 1, p95Ms: 1024 },
      { count: 1, p50Ms: 512, p95Ms: 512 },
      { count: 0, p50Ms: null, p95Ms: null },
    ]);
  });
});

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { LOG_BUFFER_MAX_BYTES, droppedLogLines } from './config/logger.js';

// The Prometheus metrics behind GET /metrics. One registry per app (not prom-client's global one),
// so that every app a test builds counts from zero.

/**
 * The process's own metrics (CPU, memory, event loop lag, GC, handles), made once and shown by every
 * app's registry: they describe the process, not an app, and each set made keeps an event loop delay
 * monitor ticking for as long as the process lives.
 */
let processMetrics: Registry | undefined;
function processMetricsRegistry(): Registry {
  if (processMetrics === undefined) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Circuit breaker states as the gauge reports them. */
export const BREAKER_STATE_VALUE = { closed: 0, 'half-open': 1, open: 2 } as const;

/** What a counted lookup of the answer cache found. */
type LookupResult = 'hit' | 'stale' | 'miss';

export function createMetrics() {
  const registry = new Registry();
  // Lookups by result, counted on the hot path as plain numbers (countLookup) and copied into
  // cache_lookups_total when /metrics is read: the same numbers, without a labelled increment per request.
  const lookups = new Map<LookupResult, number>();
  const processRegistry = processMetricsRegistry();
  for (const { name } of processRegistry.getMetricsAsArray()) registry.registerMetric(processRegistry.getSingleMetric(name)!);
  const registers = [registry];
  const httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  // Two counters whose values are set when /metrics is read, from counts kept elsewhere; nothing
  // increments them (a count added to one would be reset away), so neither is handed out.
  // The histogram's count per label set: the same number as counting each answer twice, without the
  // second count per request.
  new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
    async collect() {
      this.reset();
      for (const { metricName, labels, value } of (await httpRequestDuration.get()).values) {
        if (metricName === 'http_request_duration_seconds_count') this.inc(labels, value);
      }
    },
  });
  // The lookups counted by countLookup.
  new Counter({
    name: 'cache_lookups_total',
    help: 'Answer cache lookups, by result (hit, miss or stale)',
    labelNames: ['result'] as const,
    registers,
    collect() {
      this.reset();
      for (const [result, count] of lookups) this.inc({ result }, count);
    },
  });
  return {
    registry,
    httpRequestDuration,
    upstreamFetches: new Counter({
      name: 'upstream_fetches_total',
      help: 'Upstream requests, by origin and the verdict on their answer',
      labelNames: ['origin', 'verdict'] as const,
      registers,
    }),
    upstreamChallenges: new Counter({
      name: 'upstream_challenges_total',
      help: 'Anti-bot challenge pages met, by origin',
      labelNames: ['origin'] as const,
      registers,
    }),
    upstreamSolves: new Counter({
      name: 'upstream_solves_total',
      help: 'Challenge solves, by origin, solver and result (ok or failed)',
      labelNames: ['origin', 'solver', 'result'] as const,
      registers,
    }),
    upstreamSolveDuration: new Histogram({
      name: 'upstream_solve_duration_seconds',
      help: 'Time one challenge solve took, by solver and result',
      labelNames: ['solver', 'result'] as const,
      buckets: [0.5, 1, 2, 4, 8, 15, 30, 60],
      registers,
    }),
    upstreamBreakerState: new Gauge({
      name: 'upstream_breaker_state',
      help: 'Circuit breaker per origin: 0 closed, 1 half-open, 2 open',
      labelNames: ['origin'] as const,
      registers,
    }),
    upstreamCurrentOrigin: new Gauge({
      name: 'upstream_current_origin',
      help: '1 for the origin pages are fetched from now, 0 for the others',
      labelNames: ['origin'] as const,
      registers,
    }),
    countLookup: (result: LookupResult) => void lookups.set(result, (lookups.get(result) ?? 0) + 1),
    answersServedStale: new Counter({
      name: 'answers_served_stale_total',
      help: "Last good answers served in place of a failed fetch (X-Cache: STALE with meta.stale), by the failure's error code",
      labelNames: ['reason'] as const,
      registers,
    }),
    // Counted for the process, not per app: its loggers share one stdout.
    logLinesDropped: new Counter({
      name: 'log_lines_dropped_total',
      help: `Log lines dropped because stdout did not take them before ${LOG_BUFFER_MAX_BYTES / 2 ** 20} MB of lines were waiting`,
      registers,
      collect() {
        this.reset();
        this.inc(droppedLogLines());
      },
    }),
    redisUp: new Gauge({
      name: 'redis_up',
      help: '1 while the shared Redis (REDIS_URL) is connected, 0 while it is down; absent without REDIS_URL',
      registers: [],
    }),
    redisFallbacks: new Counter({
      name: 'redis_fallbacks_total',
      help: "Operations that used this instance's memory because Redis failed them, by use (quota, cache, lock, clearance, origin, paths, first-seen, reports)",
      labelNames: ['use'] as const,
      registers: [],
    }),
  };
}

/**
 * The answer cache's fill in /metrics, read when scraped: its entries, and its bytes as the
 * CACHE_MAX_MB bound counts them (bodies, ETags, keys and each entry's bookkeeping), so that memory
 * that grows with distinct requests can be told apart from a cache still filling to its bound.
 */
export function registerAnswerCacheMetrics(registry: Registry, size: () => { entries: number; bytes: number }): void {
  const registers = [registry];
  new Gauge({
    name: 'answer_cache_entries',
    help: 'Answers the cache holds',
    registers,
    collect() {
      this.set(size().entries);
    },
  });
  new Gauge({
    name: 'answer_cache_bytes',
    help: 'Bytes the answer cache holds, as its bound (CACHE_MAX_MB) counts them',
    registers,
    collect() {
      this.set(size().bytes);
    },
  });
}

import { BREAKER_STATE_VALUE, type Metrics } from '../metrics.js';
import type { Verdict } from './classify.js';

// What the upstream has been doing, for GET /health/upstream, the landing page and /metrics. The
// client reports each event here; nothing in it decides anything.

export type BreakerState = keyof typeof BREAKER_STATE_VALUE;

interface UpstreamEvent {
  at: string;
  url: string;
}

export interface UpstreamStatus {
  /** ok: the last fetch worked; degraded: the last one failed; down: the breaker is open. */
  health: 'ok' | 'degraded' | 'down';
  /** The origin pages are fetched from now. */
  origin: string;
  /** Configured and adopted origins, in the order they are tried. */
  origins: { origin: string; setAside: string | null }[];
  breaker: { state: BreakerState; retryAfterSeconds: number | null };
  lastSuccess: UpstreamEvent | null;
  lastFailure: (UpstreamEvent & { reason: string }) | null;
  challenges: number;
  solves: { ok: number; failed: number; lastDurationMs: number | null };
  solver: { kind: string; available: boolean };
  /** Origins whose pages are fetched through the browser because a handed-over cookie was refused. */
  browserTransport: string[];
}

export interface UpstreamMonitor {
  fetched(origin: string, verdict: Verdict['kind']): void;
  succeeded(url: string): void;
  failed(url: string, reason: string): void;
  challenged(origin: string): void;
  solved(origin: string, ok: boolean, durationMs: number): void;
  breakerChanged(origin: string, state: BreakerState, reopensAt: number | null): void;
  originsChanged(current: string, origins: UpstreamStatus['origins']): void;
  browserTransportChanged(origins: string[]): void;
  status(): UpstreamStatus;
}

export function createUpstreamMonitor(options: {
  metrics: Metrics;
  origin: string;
  solver: UpstreamStatus['solver'];
  now?: () => number;
}): UpstreamMonitor {
  const { metrics, solver } = options;
  const now = options.now ?? Date.now;
  let origin = options.origin;
  let origins: UpstreamStatus['origins'] = [{ origin, setAside: null }];
  const breakers = new Map<string, { state: BreakerState; reopensAt: number | null }>();
  let lastSuccess: UpstreamStatus['lastSuccess'] = null;
  let lastFailure: UpstreamStatus['lastFailure'] = null;
  let lastWasFailure = false;
  let challenges = 0;
  const solves = { ok: 0, failed: 0, lastDurationMs: null as number | null };
  let browserTransport: string[] = [];
  const stamp = () => new Date(now()).toISOString();

  return {
    fetched: (from, verdict) => metrics.upstreamFetches.inc({ origin: from, verdict }),
    succeeded(url) {
      lastSuccess = { at: stamp(), url };
      lastWasFailure = false;
    },
    failed(url, reason) {
      lastFailure = { at: stamp(), url, reason };
      lastWasFailure = true;
    },
    challenged(from) {
      challenges++;
      metrics.upstreamChallenges.inc({ origin: from });
    },
    solved(from, ok, durationMs) {
      const result = ok ? 'ok' : 'failed';
      solves[result]++;
      solves.lastDurationMs = durationMs;
      metrics.upstreamSolves.inc({ origin: from, solver: solver.kind, result });
      metrics.upstreamSolveDuration.observe({ solver: solver.kind, result }, durationMs / 1000);
    },
    breakerChanged(from, state, reopensAt) {
      breakers.set(from, { state, reopensAt });
      metrics.upstreamBreakerState.set({ origin: from }, BREAKER_STATE_VALUE[state]);
    },
    originsChanged(current, list) {
      origin = current;
      origins = list;
      for (const entry of list) metrics.upstreamCurrentOrigin.set({ origin: entry.origin }, entry.origin === current ? 1 : 0);
    },
    browserTransportChanged(list) {
      browserTransport = list;
    },
    status() {
      const breaker = breakers.get(origin) ?? { state: 'closed', reopensAt: null };
      const retryAfterSeconds =
        breaker.state === 'open' && breaker.reopensAt !== null ? Math.max(1, Math.ceil((breaker.reopensAt - now()) / 1000)) : null;
      return {
        health: breaker.state === 'open' ? 'down' : lastWasFailure ? 'degraded' : 'ok',
        origin,
        origins: origins.map((entry) => ({ ...entry })),
        breaker: { state: breaker.state, retryAfterSeconds },
        lastSuccess,
        lastFailure,
        challenges,
        solves: { ...solves },
        solver: { ...solver },
        browserTransport: [...browserTransport],
      };
    },
  };
}

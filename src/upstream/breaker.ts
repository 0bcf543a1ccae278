import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
  type CircuitBreakerPolicy,
  type IDisposable,
} from 'cockatiel';
import type { FetchPriority } from './connectionTurns.js';
import { UpstreamUnavailableError } from './errors.js';
import type { BreakerState, UpstreamMonitor } from './monitor.js';

// One circuit breaker per origin (cockatiel): after `threshold` page fetches in a row fail, the
// origin gets nothing for `cooldownMs`; then one probe goes through, and its success closes it.
// While the probe runs (half-open), cockatiel makes every other call wait for the probe's outcome;
// here they are refused at once instead, as while open, so a hanging probe holds up no one else.
//
// Only users' fetches count. Background fetches (the crawler's, the status probe's) are refused
// while it is open, and their failures never move it, so that one broken page the crawler keeps
// meeting cannot shut users out. Only a failure they meet on `siteWidePages` distinct pages in a
// row (the whole site failing, not one page) holds it open for the cooldown; until a background
// fetch succeeds again, each later background failure holds it open anew.

export interface OriginBreakers {
  /** Runs `fetch` through the origin's breaker; throws UpstreamUnavailableError while it is open. */
  run<T>(origin: string, url: string, fetch: () => Promise<T>, priority?: FetchPriority): Promise<T>;
  isOpen(origin: string): boolean;
}

export interface OriginBreakersOptions {
  threshold: number;
  cooldownMs: number;
  /** How many distinct pages must fail in a row for background fetches to open the breaker (the threshold by default). */
  siteWidePages?: number;
  /** Which failures say the origin is in trouble (not, say, a 404 or our own missing solver). */
  countsAsFailure: (error: unknown) => boolean;
  monitor: UpstreamMonitor;
}

const STATE_NAMES: Partial<Record<CircuitState, BreakerState>> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Open]: 'open',
  [CircuitState.Isolated]: 'open',
};

interface OriginBreaker {
  policy: CircuitBreakerPolicy;
  reopensAt: number | null;
  /** Pages whose background fetch failed since the last one that succeeded. */
  backgroundFailures: Set<string>;
  /** The hold of a site-wide background failure, released after the cooldown. */
  held: IDisposable | null;
}

export function createOriginBreakers(options: OriginBreakersOptions): OriginBreakers {
  const breakers = new Map<string, OriginBreaker>();
  const siteWidePages = options.siteWidePages ?? options.threshold;

  function breakerOf(origin: string): OriginBreaker {
    const existing = breakers.get(origin);
    if (existing) return existing;
    const entry: OriginBreaker = {
      policy: circuitBreaker(handleWhen(options.countsAsFailure), {
        halfOpenAfter: options.cooldownMs,
        breaker: new ConsecutiveBreaker(options.threshold),
      }),
      reopensAt: null,
      backgroundFailures: new Set(),
      held: null,
    };
    entry.policy.onStateChange((state) => {
      entry.reopensAt = state === CircuitState.Open || state === CircuitState.Isolated ? Date.now() + options.cooldownMs : null;
      options.monitor.breakerChanged(origin, STATE_NAMES[state] ?? 'open', entry.reopensAt);
    });
    breakers.set(origin, entry);
    return entry;
  }

  function unavailable(entry: OriginBreaker, origin: string, url: string): UpstreamUnavailableError {
    // During the probe reopensAt is null, so Retry-After is 1 s: the probe's outcome may come at any moment.
    const retryAfterSeconds = Math.max(1, Math.ceil(((entry.reopensAt ?? Date.now()) - Date.now()) / 1000));
    return new UpstreamUnavailableError(
      `The upstream ${origin} kept failing, so it gets a pause; the next try goes through in ${retryAfterSeconds} seconds`,
      url,
      retryAfterSeconds,
    );
  }

  /** Holds the breaker open for the cooldown (cockatiel's isolation), as a site-wide failure does. */
  function holdOpen(entry: OriginBreaker): void {
    if (entry.held !== null) return;
    entry.held = entry.policy.isolate();
    setTimeout(() => {
      entry.held?.dispose();
      entry.held = null;
    }, options.cooldownMs).unref();
  }

  async function runBackground<T>(entry: OriginBreaker, origin: string, url: string, fetch: () => Promise<T>): Promise<T> {
    // Open and due for its probe, a background fetch may be the probe: nothing else may come to close it.
    if (entry.policy.state === CircuitState.Open) return runCounted(entry, origin, url, fetch);
    if (entry.policy.state !== CircuitState.Closed) throw unavailable(entry, origin, url);
    try {
      const result = await fetch();
      entry.backgroundFailures.clear();
      return result;
    } catch (error) {
      if (options.countsAsFailure(error)) {
        entry.backgroundFailures.add(url);
        if (entry.backgroundFailures.size >= siteWidePages) holdOpen(entry);
      }
      throw error;
    }
  }

  async function runCounted<T>(entry: OriginBreaker, origin: string, url: string, fetch: () => Promise<T>): Promise<T> {
    try {
      if (entry.policy.state === CircuitState.HalfOpen) throw new BrokenCircuitError();
      return await entry.policy.execute(fetch);
    } catch (error) {
      if (!(error instanceof BrokenCircuitError)) throw error;
      throw unavailable(entry, origin, url);
    }
  }

  return {
    run(origin, url, fetch, priority = 'user') {
      const entry = breakerOf(origin);
      return priority === 'user' ? runCounted(entry, origin, url, fetch) : runBackground(entry, origin, url, fetch);
    },
    isOpen: (origin) => {
      const state = breakers.get(origin)?.policy.state;
      return state === CircuitState.Open || state === CircuitState.Isolated;
    },
  };
}

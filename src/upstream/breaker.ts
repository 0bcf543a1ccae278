import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import { UpstreamUnavailableError } from './errors.js';
import type { BreakerState, UpstreamMonitor } from './monitor.js';

// One circuit breaker per origin (cockatiel): after `threshold` page fetches in a row fail, the
// origin gets nothing for `cooldownMs`; then one probe goes through, and its success closes it.
// While the probe runs (half-open), cockatiel makes every other call wait for the probe's outcome;
// here they are refused at once instead, as while open, so a hanging probe holds up no one else.

export interface OriginBreakers {
  /** Runs `fetch` through the origin's breaker; throws UpstreamUnavailableError while it is open. */
  run<T>(origin: string, url: string, fetch: () => Promise<T>): Promise<T>;
  isOpen(origin: string): boolean;
}

export interface OriginBreakersOptions {
  threshold: number;
  cooldownMs: number;
  /** Which failures say the origin is in trouble (not, say, a 404 or our own missing solver). */
  countsAsFailure: (error: unknown) => boolean;
  monitor: UpstreamMonitor;
}

const STATE_NAMES: Partial<Record<CircuitState, BreakerState>> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Open]: 'open',
};

export function createOriginBreakers(options: OriginBreakersOptions): OriginBreakers {
  const breakers = new Map<string, { policy: CircuitBreakerPolicy; reopensAt: number | null }>();

  function breakerOf(origin: string) {
    const existing = breakers.get(origin);
    if (existing) return existing;
    const entry = {
      policy: circuitBreaker(handleWhen(options.countsAsFailure), {
        halfOpenAfter: options.cooldownMs,
        breaker: new ConsecutiveBreaker(options.threshold),
      }),
      reopensAt: null as number | null,
    };
    entry.policy.onStateChange((state) => {
      entry.reopensAt = state === CircuitState.Open ? Date.now() + options.cooldownMs : null;
      options.monitor.breakerChanged(origin, STATE_NAMES[state] ?? 'open', entry.reopensAt);
    });
    breakers.set(origin, entry);
    return entry;
  }

  return {
    async run(origin, url, fetch) {
      const entry = breakerOf(origin);
      try {
        if (entry.policy.state === CircuitState.HalfOpen) throw new BrokenCircuitError();
        return await entry.policy.execute(fetch);
      } catch (error) {
        if (!(error instanceof BrokenCircuitError)) throw error;
        // During the probe reopensAt is null, so Retry-After is 1 s: the probe's outcome may come at any moment.
        const retryAfterSeconds = Math.max(1, Math.ceil(((entry.reopensAt ?? Date.now()) - Date.now()) / 1000));
        throw new UpstreamUnavailableError(
          `The upstream ${origin} kept failing, so it gets a pause; the next try goes through in ${retryAfterSeconds} seconds`,
          url,
          retryAfterSeconds,
        );
      }
    },
    isOpen: (origin) => breakers.get(origin)?.policy.state === CircuitState.Open,
  };
}

import { performance } from 'node:perf_hooks';

// Users' requests go first: the crawler is background work that shares the main thread (and the
// machine) with the requests of every client. Before each of its steps it looks whether users kept
// the service busy since its last look: they sent requests while the event loop was busy, or so
// many requests that the machine's CPU, not the loop, is what they wait for (the loop of a service
// short of CPU looks idle while its requests queue). If so it waits in short slices (in which it
// does nothing itself, so what is measured there is the users' load alone), and goes on as soon as
// the users leave room. A floor keeps it moving under a flood that never lets up. The loop's load
// alone would count the crawler's own work (and, in tests, a simulated site in the same process);
// any request alone would stop it for a health check.

/** The share of the event loop's time above which the users' requests keep it busy. */
const BUSY_LOOP_SHARE = 0.6;
/**
 * Requests a second that keep the service busy, whatever the loop's share: a flood, not a page load or a probe.
 * @internal exported for the tests: the loop-yield tests make a flood of exactly this rate.
 */
export const BUSY_REQUESTS_PER_S = 200;
/**
 * The longest the crawler yields before one step: under a flood, at least one step this often.
 * @internal exported for the tests: the loop-yield tests advance fake timers by it.
 */
export const YIELD_AT_MOST_MS = 500;
/**
 * How long each look at the users' load lasts while yielding.
 * @internal exported for the tests: the loop-yield tests advance fake timers by it.
 */
export const LOOK_SLICE_MS = 50;

/** Requests the service was sent by its users, counted where every request comes in. */
export interface UserRequests {
  count: number;
}

/** Whether users kept the service busy since the previous look. */
export function usersBusy(requests: UserRequests, now: () => number = () => performance.now()): () => boolean {
  let mark = performance.eventLoopUtilization();
  let seen = requests.count;
  let lookedAt = now();
  return () => {
    const share = performance.eventLoopUtilization(mark).utilization;
    mark = performance.eventLoopUtilization();
    const at = now();
    const served = requests.count - seen;
    const perSecond = (served * 1000) / Math.max(at - lookedAt, 1);
    seen = requests.count;
    lookedAt = at;
    return served > 0 && (share > BUSY_LOOP_SHARE || perSecond > BUSY_REQUESTS_PER_S);
  };
}

export interface LoopYieldOptions {
  /** Whether users kept the service busy since the previous call. */
  busySinceLastLook: () => boolean;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  stopped: () => boolean;
}

/**
 * Waits while users keep the service busy, at most YIELD_AT_MOST_MS. Resolves with the number of
 * slices it waited (0 when they left room at once).
 */
export function loopYield({ busySinceLastLook, sleep, now, stopped }: LoopYieldOptions): () => Promise<number> {
  return async () => {
    const until = now() + YIELD_AT_MOST_MS;
    let slices = 0;
    while (busySinceLastLook() && now() < until && !stopped()) {
      await sleep(Math.min(LOOK_SLICE_MS, until - now()));
      slices++;
    }
    return slices;
  };
}

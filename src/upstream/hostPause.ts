import { setTimeout as sleep } from 'node:timers/promises';
import { UpstreamBlockedError } from './errors.js';

// An upstream that says "429, Retry-After: N" gets N seconds of silence from us, for every
// request to that origin, not only the one that was told.

export interface HostPauses {
  pause(origin: string, seconds: number): void;
  /**
   * Waits out a pause on `origin` when it ends before `deadlineAt`; otherwise throws
   * UpstreamBlockedError with the seconds left, without sending anything.
   */
  waitFor(origin: string, url: string, deadlineAt: number, signal: AbortSignal): Promise<void>;
}

export function createHostPauses(now: () => number = Date.now): HostPauses {
  const until = new Map<string, number>();
  return {
    pause(origin, seconds) {
      until.set(origin, Math.max(until.get(origin) ?? 0, now() + seconds * 1000));
    },
    async waitFor(origin, url, deadlineAt, signal) {
      const end = until.get(origin) ?? 0;
      if (end <= now()) {
        until.delete(origin);
        return;
      }
      if (end >= deadlineAt)
        throw new UpstreamBlockedError(
          'The upstream is rate limiting us; this service is pausing its requests',
          url,
          Math.max(1, Math.ceil((end - now()) / 1000)),
          'rate-limited',
        );
      // A timer may fire a little before the clock says its time is up (it counts from the event
      // loop's cached time); the site is asked nothing before the end it set.
      while (end > now()) await sleep(end - now(), undefined, { signal });
    },
  };
}

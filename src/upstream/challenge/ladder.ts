import type { UpstreamAnswer, UpstreamFailure } from '../classify.js';
import { FIREWALL_RETRY_AFTER_SECONDS, UpstreamBlockedError } from '../errors.js';
import { requestHeaders } from './headers.js';
import type { HttpTransport } from '../http.js';
import type { PageFetch } from '../pageFetch.js';
import type { Clearance } from './clearance.js';
import { createChallengeGate, type ChallengeGateOptions } from './gate.js';

// How one attempt gets through an origin's anti-bot wall, one step at a time: a plain request,
// with the origin's clearance when one is kept; on a challenge, a clearance (another request's
// newer one, or a shared solve by Chromium or FlareSolverr); when that fresh clearance is
// challenged too, the origin's browser page; when even that is, the attempt gives up.

export interface ChallengeLadder {
  /** One attempt at `origin`: what it sent and which steps it took. */
  climb(origin: string): Climb;
  /** Closes the browser pages and the solver's browser. */
  close(): Promise<void>;
}

interface Climb {
  /** Sends `url` the way the origin lets us through now: through its browser page while that mode lasts, else plainly with its clearance. */
  send(url: string, signal: AbortSignal): Promise<UpstreamAnswer | UpstreamFailure>;
  /** The last answer was a challenge: takes the next step, or throws UpstreamBlockedError when none is left. */
  next(url: string, fetch: Pick<PageFetch, 'signal' | 'track'>): Promise<void>;
}

export interface ChallengeLadderOptions extends ChallengeGateOptions {
  http: HttpTransport;
}

export function createChallengeLadder(options: ChallengeLadderOptions): ChallengeLadder {
  const gate = createChallengeGate(options);

  async function openBrowserTransport(clearance: Clearance, signal: AbortSignal): Promise<void> {
    try {
      await gate.useBrowser(clearance, signal);
    } catch (error) {
      if (error instanceof UpstreamBlockedError) throw error;
      throw new UpstreamBlockedError('The browser page for the upstream could not be opened', clearance.origin, 60, 'refused', {
        cause: error,
      });
    }
  }

  function climb(origin: string): Climb {
    let used: Clearance | undefined;
    let viaBrowser = false;
    let fresh: Clearance | null = null;
    return {
      send(url, signal) {
        used = gate.clearance(origin);
        const transport = gate.transport(origin);
        viaBrowser = transport !== undefined;
        return transport ? transport.fetch(url) : options.http.get(url, requestHeaders(used), signal);
      },
      async next(url, { signal, track }) {
        if (fresh !== null && viaBrowser)
          throw new UpstreamBlockedError(
            "The upstream's anti-bot wall refuses even the browser",
            url,
            FIREWALL_RETRY_AFTER_SECONDS,
            'refused',
          );
        // Left set when this throws: a deadline that interrupts the solve is reported as a wall, not a timeout.
        track(true);
        const clearance = fresh ?? (await gate.cleared(url, used, signal));
        // A fresh clearance refused by the light client, or a browser page whose own clearance ran out.
        if (fresh !== null || viaBrowser) await openBrowserTransport(clearance, signal);
        track(false);
        fresh = clearance;
      },
    };
  }

  return { climb, close: () => gate.close() };
}

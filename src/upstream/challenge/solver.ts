import type { UpstreamAnswer, UpstreamFailure } from '../classify.js';
import type { Clearance } from './clearance.js';

/** Gets through an anti-bot challenge the way a person's browser does. */
export interface ChallengeSolver {
  readonly kind: 'chromium' | 'flaresolverr';
  /** Solves the challenge on `url` within the solver's own time limit. */
  solve(url: string): Promise<Clearance>;
  /**
   * Fetches through the solver's browser itself, for origins that refuse a handed-over cookie
   * (for example because the wall also checks the TLS fingerprint).
   */
  openTransport(clearance: Clearance): Promise<BrowserTransport>;
  close(): Promise<void>;
}

export interface BrowserTransport {
  fetch(url: string): Promise<UpstreamAnswer | UpstreamFailure>;
  close(): Promise<void>;
}

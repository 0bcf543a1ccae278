import type { UpstreamAnswer, UpstreamFailure } from '../classify.js';
import type { Clearance } from './clearance.js';

/** How long one solve may take, browser start included; another instance waits as long for a shared solve. */
export const SOLVE_TIMEOUT_MS = 30_000;

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

import type { FetchPriority } from './connectionTurns.js';

export interface UpstreamPage {
  /** The URL that finally answered (after same-origin redirects), on the origin that served it. */
  url: string;
  status: number;
  /**
   * The page's bytes as they arrived; its text, links on the serving origin, is pageText(page)
   * (siteLinks.ts). The only view of its memory: the memory moves to the parse thread (pageParser.ts).
   */
  body: Uint8Array;
  /** The origin that served the page, and every origin of the site known then, whose links name the serving one in the text. */
  servedBy: string;
  siteOrigins: readonly string[];
  attempts: number;
}

/** One page fetch under way: its deadline, and a note of whether it waits for a solve, so the deadline can say what it interrupted. */
export interface PageFetch {
  /** Whose fetch it is: a background one is not counted by the breaker, and not retried (its caller tries again later). */
  priority: FetchPriority;
  signal: AbortSignal;
  deadlineAt: number;
  track: (solving: boolean) => void;
}

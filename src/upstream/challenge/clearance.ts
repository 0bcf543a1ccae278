/** A solved challenge: what lets a plain HTTP client through the wall of one origin for a while. */
export interface Clearance {
  origin: string;
  /** The exact User-Agent of the browser that earned it; the wall binds the cookie to it. */
  userAgent: string;
  /** sec-ch-ua* headers the browser sent along, so the hand-off tells the same story. */
  clientHints: Record<string, string>;
  cookies: ClearanceCookie[];
  obtainedAt: number;
  /** When to stop using it (ms since epoch), a little before the cookie itself expires. */
  expiresAt: number;
}

export interface ClearanceCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Seconds since epoch; -1 for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
}

// Cloudflare's default challenge passage is 30 minutes; never trust a clearance longer than this.
const MAX_CLEARANCE_AGE_MS = 25 * 60 * 1000;

/**
 * Until when a clearance may be used: the clearance cookie's expiry less a margin (a fifth of its
 * lifetime, at most a minute, for clock skew), and never longer than MAX_CLEARANCE_AGE_MS.
 */
export function clearanceExpiry(cookies: readonly ClearanceCookie[], obtainedAt: number): number {
  const latest = obtainedAt + MAX_CLEARANCE_AGE_MS;
  const cookie = cookies.find((candidate) => candidate.name === 'cf_clearance');
  if (cookie === undefined || cookie.expires <= 0) return latest;
  const expiresAt = cookie.expires * 1000;
  const margin = Math.min(60_000, Math.max(0, (expiresAt - obtainedAt) / 5));
  return Math.min(latest, expiresAt - margin);
}

/** Only what a challenge page's script needs to pass is in these headers. */
const CLIENT_HINT = /^sec-ch-ua(-mobile|-platform)?$/;

export function pickClientHints(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => CLIENT_HINT.test(name.toLowerCase())));
}

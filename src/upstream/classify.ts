// Decides what an upstream answer is, from its status, headers and body, or what a failed
// request means. Pure, so every rule is unit-tested on its own. The cheapest signals come first.

export type Verdict =
  | { kind: 'ok' }
  /** Same-origin redirect (WordPress canonical URLs): follow it. */
  | { kind: 'redirect'; location: string }
  /** Redirect to another origin: the site has probably moved domain. */
  | { kind: 'moved'; location: string }
  | { kind: 'challenge' }
  | { kind: 'rate-limited'; retryAfterSeconds: number | null }
  /** A firewall rule refuses us; a browser would not help and a retry neither. */
  | { kind: 'blocked' }
  | { kind: 'not-found' }
  | { kind: 'upstream-error' }
  /** No answer at all: network error or timeout. */
  | { kind: 'transient'; reason: string }
  /** A 200 that is not a WordPress page: a parked domain or a "we have moved" notice. */
  | { kind: 'suspect' };

export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
  /** Absolute URL that was requested; redirects are judged against its origin. */
  url: string;
}

/** A request that got no answer; `reason` is the error code (ECONNREFUSED, ETIMEDOUT, …). */
export interface UpstreamFailure {
  url: string;
  failure: string;
}

// Markers of Cloudflare's (and DDoS-Guard's) interstitial; only looked for on 403/429/503,
// because a normal page may well mention Cloudflare.
const CHALLENGE_MARKERS = [
  '<title>Just a moment...</title>',
  'window._cf_chl_opt',
  '/cdn-cgi/challenge-platform/',
  'cf-turnstile',
  '<title>DDoS-Guard</title>',
];

// Cloudflare 1020 (firewall rule), 1010 (browser signature), 1006-1009 (IP or country ban), and
// Wordfence's lock-out page, which WordPress sites often run.
const BLOCK_MARKERS = [
  /cf-error-code">10(?:20|10|0[6-9])</,
  /<title>Access denied/i,
  /<title>Attention Required! \| Cloudflare/i,
  /Sorry, you have been blocked/i,
  /Your access to this site has been limited by the site owner/i,
];

// Every WordPress page links its assets and REST API; a redesign keeps these, a parked domain has none.
const WORDPRESS_MARKERS = ['/wp-content/', '/wp-includes/', 'https://api.w.org/'];

function challengeHeader(headers: UpstreamAnswer['headers']): boolean {
  return (
    headers['cf-mitigated']?.toLowerCase() === 'challenge' ||
    headers['x-vercel-mitigated']?.toLowerCase() === 'challenge' ||
    ['challenge', 'captcha'].includes(headers['x-amzn-waf-action']?.toLowerCase() ?? '')
  );
}

export function classifyAnswer(outcome: UpstreamAnswer | UpstreamFailure): Verdict {
  if ('failure' in outcome) return { kind: 'transient', reason: outcome.failure };
  const { status, headers, body } = outcome;
  if (status >= 300 && status < 400) {
    const location = headers.location;
    if (!location) return { kind: 'upstream-error' };
    const target = new URL(location, outcome.url);
    return target.origin === new URL(outcome.url).origin
      ? { kind: 'redirect', location: target.href }
      : { kind: 'moved', location: target.href };
  }
  if (challengeHeader(headers)) return { kind: 'challenge' };
  const wallStatus = status === 403 || status === 429 || status === 503;
  if (wallStatus && (CHALLENGE_MARKERS.some((marker) => body.includes(marker)) || headers.server?.toLowerCase() === 'ddos-guard'))
    return { kind: 'challenge' };
  if (status === 429 || body.includes('cf-error-code">1015<'))
    return { kind: 'rate-limited', retryAfterSeconds: parseRetryAfter(headers['retry-after']) };
  if (wallStatus && BLOCK_MARKERS.some((marker) => marker.test(body))) return { kind: 'blocked' };
  if (status === 404 || status === 410) return { kind: 'not-found' };
  if (status >= 200 && status < 300)
    return WORDPRESS_MARKERS.some((marker) => body.includes(marker)) ? { kind: 'ok' } : { kind: 'suspect' };
  return { kind: 'upstream-error' };
}

/** Retry-After is either delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

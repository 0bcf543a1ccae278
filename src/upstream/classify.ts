// Decides what an upstream answer is, from its status, headers and (for errors only) its body.
// Pure, so every rule is unit-tested on its own.

export type Verdict =
  | { kind: 'ok' }
  | { kind: 'redirect'; location: string }
  | { kind: 'moved'; location: string }
  | { kind: 'challenge' }
  | { kind: 'rate-limited'; retryAfterSeconds: number | null }
  | { kind: 'blocked' }
  | { kind: 'not-found' }
  | { kind: 'upstream-error' };

export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  body: string;
  /** Absolute URL that was requested; redirects are judged against its origin. */
  url: string;
}

// Markers of Cloudflare's (and DDoS-Guard's) interstitial; only looked for on error statuses,
// because a normal page may well mention Cloudflare.
const CHALLENGE_MARKERS = [
  '<title>Just a moment...</title>',
  'window._cf_chl_opt',
  '/cdn-cgi/challenge-platform/',
  'cf-turnstile',
  '<title>DDoS-Guard</title>',
];

const BLOCK_MARKERS = [/cf-error-code">10(?:20|10|0[6-9])</, /<title>Access denied/i, /Sorry, you have been blocked/i];

export function classifyAnswer(answer: UpstreamAnswer): Verdict {
  const { status, headers, body } = answer;
  if (status >= 300 && status < 400) {
    const location = headers.location;
    if (!location) return { kind: 'upstream-error' };
    const target = new URL(location, answer.url);
    return target.origin === new URL(answer.url).origin
      ? { kind: 'redirect', location: target.href }
      : { kind: 'moved', location: target.href };
  }
  if (headers['cf-mitigated']?.toLowerCase() === 'challenge') return { kind: 'challenge' };
  if ([403, 429, 503].includes(status) && CHALLENGE_MARKERS.some((marker) => body.includes(marker)))
    return { kind: 'challenge' };
  if (status === 429 || body.includes('cf-error-code">1015<'))
    return { kind: 'rate-limited', retryAfterSeconds: parseRetryAfter(headers['retry-after']) };
  if (status === 403 && BLOCK_MARKERS.some((marker) => marker.test(body))) return { kind: 'blocked' };
  if (status === 404 || status === 410) return { kind: 'not-found' };
  if (status >= 200 && status < 300) return { kind: 'ok' };
  return { kind: 'upstream-error' };
}

/** Retry-After is either delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

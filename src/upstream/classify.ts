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
  /** The site's own 404 or 410 page: this page is gone. */
  | { kind: 'not-found' }
  | { kind: 'upstream-error' }
  /** No answer at all: network error or timeout. */
  | { kind: 'transient'; reason: string }
  /** A 200 that is not a WordPress page: a parked domain or a "we have moved" notice. */
  | { kind: 'suspect' }
  /** A body over MAX_PAGE_BYTES. */
  | { kind: 'too-large' }
  /** A 2xx page that stops before its end: PHP that dies mid-render still sends a complete HTTP answer. */
  | { kind: 'cut-off' };

export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  /** The body's bytes as they arrived: only a page that is parsed is decoded, and on its parse thread. */
  body: Buffer;
  /** Absolute URL that was requested; redirects are judged against its origin. */
  url: string;
}

/**
 * The bound on a page's size. The real site's longest pages are series pages with hundreds of
 * episodes: 284 KB for 196 episodes, a 600-episode page ~320 KB in the simulator; a
 * listing is ~120-180 KB (measured on the real site). 2 MB leaves a margin of six times the
 * largest, and still bounds what a bad page can cost to read and parse.
 */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;

/** The `failure` of a request whose body passed MAX_PAGE_BYTES and was not read further. */
export const PAGE_TOO_LARGE = 'PAGE_TOO_LARGE';

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

// The theme ends every page with its footer (`div#footer`) and the document with
// `</html>`. Either is taken as the end: an install may drop the footer, and an HTML minifier the
// end tag; a page cut off mid-render has neither. Only comments and whitespace may follow
// `</html>` (cache plugins sign there), so an end tag quoted inside a script does not count.
const FOOTER_TAG = /\sid\s*=\s*["']?footer["'\s>]/i;
const DOCUMENT_END = /<\/html\s*>(?:\s|<!--[^]*?-->)*$/i;
// Where `</html>` and what may follow it are looked for; a cache plugin's signature is a line.
const END_WINDOW_BYTES = 4096;

/**
 * Whether a page reaches its end (the theme's footer, or `</html>` at the end). Linear in the page's
 * length. Its markers are ASCII, which Latin-1 reads byte for byte from UTF-8 as from any charset.
 */
function pageIsWhole(body: Buffer): boolean {
  return (
    DOCUMENT_END.test(body.toString('latin1', Math.max(0, body.length - END_WINDOW_BYTES))) || FOOTER_TAG.test(body.toString('latin1'))
  );
}

/** Whether a wall's page is a firewall's block page; its markers are ASCII, read as pageIsWhole reads its own. */
function blockPage(body: Buffer): boolean {
  const text = body.toString('latin1');
  return BLOCK_MARKERS.some((marker) => marker.test(text));
}

function challengeHeader(headers: UpstreamAnswer['headers']): boolean {
  return (
    headers['cf-mitigated']?.toLowerCase() === 'challenge' ||
    headers['x-vercel-mitigated']?.toLowerCase() === 'challenge' ||
    ['challenge', 'captcha'].includes(headers['x-amzn-waf-action']?.toLowerCase() ?? '')
  );
}

export function classifyAnswer(outcome: UpstreamAnswer | UpstreamFailure): Verdict {
  if ('failure' in outcome)
    return outcome.failure === PAGE_TOO_LARGE ? { kind: 'too-large' } : { kind: 'transient', reason: outcome.failure };
  const { status, headers, body } = outcome;
  // A transport without a byte bound as it reads (the browser page) is held to the same one here.
  if (body.length > MAX_PAGE_BYTES) return { kind: 'too-large' };
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
  if (wallStatus && blockPage(body)) return { kind: 'blocked' };
  const fromWordPress = WORDPRESS_MARKERS.some((marker) => body.includes(marker));
  // Only the site's own "not found" page (WordPress's, in the theme) says the page is gone: a bare
  // 404 or 410 (a parked or misconfigured domain, a proxy in front of a dead site) is a fault of the upstream.
  if (status === 404 || status === 410) return fromWordPress ? { kind: 'not-found' } : { kind: 'upstream-error' };
  if (status >= 200 && status < 300) {
    if (!fromWordPress) return { kind: 'suspect' };
    return pageIsWhole(body) ? { kind: 'ok' } : { kind: 'cut-off' };
  }
  return { kind: 'upstream-error' };
}

/**
 * Retry-After is either delay-seconds or an HTTP date.
 * @internal exported for the tests: its unit test covers both Retry-After forms and the malformed ones.
 */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

import { describe, expect, it } from 'vitest';
import {
  classifyAnswer,
  MAX_PAGE_BYTES,
  PAGE_TOO_LARGE,
  parseRetryAfter,
  type UpstreamAnswer,
  type UpstreamFailure,
  type Verdict,
} from '../../../src/upstream/classify.js';

const url = 'https://anichin.example/ongoing/';
/** An answer whose body is `body`'s UTF-8 bytes, as a transport gives it. */
const answer = ({ body = '', ...overrides }: Omit<Partial<UpstreamAnswer>, 'body'> & { body?: string }): UpstreamAnswer => ({
  status: 200,
  headers: {},
  url,
  ...overrides,
  body: Buffer.from(body),
});
// Every WordPress page links its theme assets; a page without them is suspect.
const WP_HEAD = '<link rel="stylesheet" href="https://anichin.example/wp-content/themes/animestream/style.css">';
// A page reaches its end: `</html>` (or the theme's footer); a page without either was cut off.
const END = '</body></html>';
const CHALLENGE_BODY =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={cType:"managed"};</script></body></html>';

describe('classifyAnswer', () => {
  it.each([
    ['a normal page', answer({ body: `<html>${WP_HEAD}<div class="listupd"></div></html>` }), { kind: 'ok' }],
    [
      'a normal page that mentions Cloudflare and its challenge path',
      answer({
        body: `${WP_HEAD}<script src="https://cdnjs.cloudflare.com/x.js"></script> /cdn-cgi/challenge-platform/ Just a moment...${END}`,
      }),
      { kind: 'ok' },
    ],
    [
      'a normal page whose CSP names Cloudflare, served with Cloudflare edge headers',
      answer({
        headers: {
          server: 'cloudflare',
          'cf-ray': '8f1e2d3c4b5a6978-SIN',
          'content-security-policy': "script-src 'self' https://challenges.cloudflare.com",
        },
        body: `${WP_HEAD}<title>Just a moment... with Donghua</title>${END}`,
      }),
      { kind: 'ok' },
    ],
    [
      'a redesigned WordPress page (no theme classes, WordPress assets kept)',
      answer({ body: `<div class="card-grid"></div><script src="/wp-includes/js/jquery.js"></script>${END}` }),
      { kind: 'ok' },
    ],
    [
      'a WordPress page recognised by its REST API link',
      answer({ body: `<link rel="https://api.w.org/" href="https://anichin.example/wp-json/">${END}` }),
      { kind: 'ok' },
    ],
    [
      'a parked domain (200 without WordPress)',
      answer({ body: '<html><title>anichin.example is for sale</title></html>' }),
      { kind: 'suspect' },
    ],
    ['a "we have moved" notice (200 without WordPress)', answer({ body: '<h1>Kami pindah ke anichin.new</h1>' }), { kind: 'suspect' }],
    ['an empty 200', answer({ body: '' }), { kind: 'suspect' }],
    [
      'a WordPress page cut off before its end (no footer, no </html>)',
      answer({ body: `<html>${WP_HEAD}<div class="postbody"><div class="eplister"><ul><li>` }),
      { kind: 'cut-off' },
    ],
    [
      'a page whose only </html> is quoted in a script before the cut',
      answer({ body: `<html>${WP_HEAD}<script>document.write("</html>")</script><div class="postbody">` }),
      { kind: 'cut-off' },
    ],
    [
      'a page without </html> that reached the theme footer (a minifier dropped the end tag)',
      answer({ body: `<html>${WP_HEAD}<div class="postbody"></div><div id="footer"><footer></footer></div><script></script>` }),
      { kind: 'ok' },
    ],
    [
      'a page whose footer an install dropped, ending with </html>',
      answer({ body: `<html>${WP_HEAD}<div class="postbody"></div></body></html>` }),
      { kind: 'ok' },
    ],
    [
      "a page ending with </html> and a cache plugin's signature",
      answer({ body: `<html>${WP_HEAD}</body>\n</HTML>\n<!-- Cached by WP Rocket at 12:00 -->\n` }),
      { kind: 'ok' },
    ],
    ['a page over the size bound', answer({ body: `<html>${WP_HEAD}${'x'.repeat(MAX_PAGE_BYTES)}${END}` }), { kind: 'too-large' }],
    ['a body the transport stopped reading at the size bound', { url, failure: PAGE_TOO_LARGE }, { kind: 'too-large' }],
    ["Vercel's challenge header", answer({ status: 429, headers: { 'x-vercel-mitigated': 'challenge' } }), { kind: 'challenge' }],
    ["AWS WAF's captcha header", answer({ status: 405, headers: { 'x-amzn-waf-action': 'captcha' } }), { kind: 'challenge' }],
    ['a DDoS-Guard check by its server header', answer({ status: 403, headers: { server: 'ddos-guard' } }), { kind: 'challenge' }],
    ['a 200 that carries challenge markers but is a normal page', answer({ body: `${WP_HEAD}window._cf_chl_opt${END}` }), { kind: 'ok' }],
    ['a 429 whose body is a challenge', answer({ status: 429, body: CHALLENGE_BODY }), { kind: 'challenge' }],
    [
      'Cloudflare 1010 (browser signature ban)',
      answer({ status: 403, body: '<span class="cf-error-code">1010</span>' }),
      { kind: 'blocked' },
    ],
    ['Cloudflare 1006 (IP ban)', answer({ status: 403, body: '<span class="cf-error-code">1006</span>' }), { kind: 'blocked' }],
    ['"Sorry, you have been blocked"', answer({ status: 403, body: '<h1>Sorry, you have been blocked</h1>' }), { kind: 'blocked' }],
    [
      'Attention Required! | Cloudflare',
      answer({ status: 403, body: '<title>Attention Required! | Cloudflare</title>' }),
      { kind: 'blocked' },
    ],
    [
      'a Wordfence lock-out on a 503',
      answer({ status: 503, body: 'Your access to this site has been limited by the site owner' }),
      { kind: 'blocked' },
    ],
    ['a 1020 marker on a 200 is not a block', answer({ body: `${WP_HEAD}<span class="cf-error-code">1020</span>${END}` }), { kind: 'ok' }],
    [
      'Cloudflare 1015 on a 403',
      answer({ status: 403, body: '<span class="cf-error-code">1015</span>' }),
      { kind: 'rate-limited', retryAfterSeconds: null },
    ],
    ['a Cloudflare 530 (origin DNS error)', answer({ status: 530 }), { kind: 'upstream-error' }],
    ['a 502', answer({ status: 502 }), { kind: 'upstream-error' }],
    ['a 401', answer({ status: 401 }), { kind: 'upstream-error' }],
    ['a refused connection', { url, failure: 'ECONNREFUSED' }, { kind: 'transient', reason: 'ECONNREFUSED' }],
    ['a timeout', { url, failure: 'ETIMEDOUT' }, { kind: 'transient', reason: 'ETIMEDOUT' }],
    [
      'a redirect to the same host over another scheme',
      answer({ status: 301, headers: { location: 'http://anichin.example/ongoing/' } }),
      { kind: 'moved', location: 'http://anichin.example/ongoing/' },
    ],
    ['cf-mitigated: challenge on a 403', answer({ status: 403, headers: { 'cf-mitigated': 'challenge' } }), { kind: 'challenge' }],
    ['challenge markers on a 503 without the header', answer({ status: 503, body: CHALLENGE_BODY }), { kind: 'challenge' }],
    ['challenge markers on a 403', answer({ status: 403, body: CHALLENGE_BODY }), { kind: 'challenge' }],
    ['a plain 503', answer({ status: 503, body: '<h1>Service Unavailable</h1>' }), { kind: 'upstream-error' }],
    ['a 500', answer({ status: 500 }), { kind: 'upstream-error' }],
    ['a Cloudflare 522', answer({ status: 522 }), { kind: 'upstream-error' }],
    ["the theme's 404 page", answer({ status: 404, body: `${WP_HEAD}<div class="notf"><h1>404</h1></div>${END}` }), { kind: 'not-found' }],
    [
      'a 410 from WordPress',
      answer({ status: 410, body: `<link rel="https://api.w.org/" href="https://anichin.example/wp-json/">${END}` }),
      { kind: 'not-found' },
    ],
    [
      'a bare 404 (a parked or misconfigured domain)',
      answer({
        status: 404,
        body: '<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>',
      }),
      { kind: 'upstream-error' },
    ],
    ['an empty 410', answer({ status: 410 }), { kind: 'upstream-error' }],
    [
      'a 429 with Retry-After',
      answer({ status: 429, headers: { 'retry-after': '120' } }),
      { kind: 'rate-limited', retryAfterSeconds: 120 },
    ],
    [
      'error 1015 without Retry-After',
      answer({ status: 429, body: '<span class="cf-error-code">1015</span>' }),
      { kind: 'rate-limited', retryAfterSeconds: null },
    ],
    ['a 1020 firewall block', answer({ status: 403, body: '<span class="cf-error-code">1020</span>' }), { kind: 'blocked' }],
    ['a plain 403 without markers', answer({ status: 403, body: 'Forbidden' }), { kind: 'upstream-error' }],
    [
      'a same-origin redirect',
      answer({ status: 301, headers: { location: '/ongoing/page/2/' } }),
      { kind: 'redirect', location: 'https://anichin.example/ongoing/page/2/' },
    ],
    [
      'a redirect to another origin',
      answer({ status: 301, headers: { location: 'https://anichin.new/ongoing/' } }),
      { kind: 'moved', location: 'https://anichin.new/ongoing/' },
    ],
    ['a redirect without Location', answer({ status: 302 }), { kind: 'upstream-error' }],
  ] satisfies [string, UpstreamAnswer | UpstreamFailure, Verdict][])('%s', (_name, input, verdict) => {
    expect(classifyAnswer(input)).toEqual(verdict);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  it.each([
    [undefined, null],
    ['', null],
    ['30', 30],
    [' 7 ', 7],
    ['Sat, 21 Nov 2026 10:01:30 GMT', 90],
    ['Sat, 21 Nov 2026 09:00:00 GMT', 0],
    ['soon', null],
  ])('%j → %j', (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });
});

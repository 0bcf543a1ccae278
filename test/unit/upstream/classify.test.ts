import { describe, expect, it } from 'vitest';
import { classifyAnswer, parseRetryAfter, type UpstreamAnswer } from '../../../src/upstream/classify.js';

const url = 'https://anichin.example/ongoing/';
const answer = (overrides: Partial<UpstreamAnswer>): UpstreamAnswer => ({ status: 200, headers: {}, body: '', url, ...overrides });
const CHALLENGE_BODY =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={cType:"managed"};</script></body></html>';

describe('classifyAnswer', () => {
  it.each([
    ['a normal page', answer({ body: '<html><div class="listupd"></div></html>' }), { kind: 'ok' }],
    [
      'a normal page that mentions Cloudflare and its challenge path',
      answer({ body: '<script src="https://cdnjs.cloudflare.com/x.js"></script> /cdn-cgi/challenge-platform/ Just a moment...' }),
      { kind: 'ok' },
    ],
    ['cf-mitigated: challenge on a 403', answer({ status: 403, headers: { 'cf-mitigated': 'challenge' } }), { kind: 'challenge' }],
    ['challenge markers on a 503 without the header', answer({ status: 503, body: CHALLENGE_BODY }), { kind: 'challenge' }],
    ['challenge markers on a 403', answer({ status: 403, body: CHALLENGE_BODY }), { kind: 'challenge' }],
    ['a plain 503', answer({ status: 503, body: '<h1>Service Unavailable</h1>' }), { kind: 'upstream-error' }],
    ['a 500', answer({ status: 500 }), { kind: 'upstream-error' }],
    ['a Cloudflare 522', answer({ status: 522 }), { kind: 'upstream-error' }],
    ['a 404', answer({ status: 404 }), { kind: 'not-found' }],
    ['a 410', answer({ status: 410 }), { kind: 'not-found' }],
    ['a 429 with Retry-After', answer({ status: 429, headers: { 'retry-after': '120' } }), { kind: 'rate-limited', retryAfterSeconds: 120 }],
    ['error 1015 without Retry-After', answer({ status: 429, body: '<span class="cf-error-code">1015</span>' }), { kind: 'rate-limited', retryAfterSeconds: null }],
    ['a 1020 firewall block', answer({ status: 403, body: '<span class="cf-error-code">1020</span>' }), { kind: 'blocked' }],
    ['a plain 403 without markers', answer({ status: 403, body: 'Forbidden' }), { kind: 'upstream-error' }],
    ['a same-origin redirect', answer({ status: 301, headers: { location: '/ongoing/page/2/' } }), { kind: 'redirect', location: 'https://anichin.example/ongoing/page/2/' }],
    ['a redirect to another origin', answer({ status: 301, headers: { location: 'https://anichin.new/ongoing/' } }), { kind: 'moved', location: 'https://anichin.new/ongoing/' }],
    ['a redirect without Location', answer({ status: 302 }), { kind: 'upstream-error' }],
  ])('%s', (_name, input, verdict) => {
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

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CatalogAnswer } from '../../../src/catalog/answer.js';
import { cacheKey, createAnswerLifecycle, type CatalogResult, type FetchedAnswer } from '../../../src/catalog/answerLifecycle.js';
import { AnswerCache } from '../../../src/catalog/cache.js';
import { endpoints } from '../../../src/catalog/endpoints/index.js';
import { createLogger } from '../../../src/config/logger.js';
import { SearchQuery } from '../../../src/contract/params.js';
import { describeError } from '../../../src/http/errorTable.js';
import { PARSER_VERSION } from '../../../src/parsers/version.js';
import { openAnswerFile } from '../../../src/stores/answers/answerFile.js';
import { createSqliteAnswers } from '../../../src/stores/answers/sqlite.js';
import { keptUntil, type AnswerLifetimes } from '../../../src/stores/answers/storedAnswer.js';
import { UpstreamBadResponseError, UpstreamTimeoutError } from '../../../src/upstream/errors.js';

const search = endpoints.find((endpoint) => endpoint.path === '/catalog/search')!;
const home = endpoints.find((endpoint) => endpoint.path === '/catalog/home')!;

describe('cacheKey', () => {
  it('is endpoint + validated query in a fixed order + parser version', () => {
    expect(cacheKey(search, { q: 'soul land', page: 2 })).toBe(`/catalog/search?page=2&q=soul%20land#parser-v${PARSER_VERSION}`);
    expect(cacheKey(search, { page: 2, q: 'soul land' })).toBe(cacheKey(search, { q: 'soul land', page: 2 }));
  });

  it('gives one key to searches that differ only in case, spacing or a default page', () => {
    const key = (raw: Record<string, string>) => cacheKey(search, SearchQuery.parse(raw));
    expect(key({ q: '  Soul   LAND ' })).toBe(key({ q: 'soul land', page: '1' }));
    expect(key({ q: 'soul land', page: '2' })).not.toBe(key({ q: 'soul land' }));
  });

  it('keeps endpoints apart', () => {
    expect(cacheKey(home, { page: 1 })).not.toBe(cacheKey(endpoints[3], { page: 1 }));
  });
});

const T0 = Date.parse('2026-11-21T10:00:00Z');
const TTL_S = 60;
const LIFETIMES: AnswerLifetimes = { staleMaxMs: 120_000, keepMs: 7 * 24 * 3_600_000 };
const PAST_TTL_MS = TTL_S * 1000 + 1;
const PAST_STALE_WINDOW_MS = TTL_S * 1000 + LIFETIMES.staleMaxMs + 1;
const FAILED_FETCH_RETRY_MS = 10_000;
const SITE_URL = 'https://site.example/';
const logger = createLogger('silent');

/** One fetch of the site the test answers: with the page's text, or with an error. */
interface PendingFetch {
  succeed(text: string): void;
  fail(error: Error): void;
}

/**
 * The lifecycle over a real cache and a real answers store (answers.sqlite in a new directory),
 * with the site's fetches held until the test answers them, and what it counted and served recorded.
 */
function setUp(dataDir = mkdtempSync(join(tmpdir(), 'answer-lifecycle-')), clock = { now: T0 }) {
  const now = () => clock.now;
  const cache = new AnswerCache({ maxBytes: 10 * 1024 * 1024, staleMaxMs: LIFETIMES.staleMaxMs, now });
  const file = openAnswerFile({
    path: join(dataDir, 'answers.sqlite'),
    maxBytes: 10 * 1024 * 1024,
    keepUntil: (answer) => keptUntil(answer, LIFETIMES),
    now,
    logger,
  });
  const fetches: PendingFetch[] = [];
  const lookups: string[] = [];
  const servedStale: string[] = [];
  const fetchAnswer = () =>
    new Promise<FetchedAnswer>((resolve, reject) => {
      fetches.push({
        succeed: (text) =>
          resolve({ answer: answerOf(text, clock.now), upstream: { url: SITE_URL, status: 200, attempts: 1, durationMs: 5 } }),
        fail: reject,
      });
    });
  const lifecycle = createAnswerLifecycle({
    cache,
    answers: createSqliteAnswers({ file, lifetimes: LIFETIMES, now }),
    fetchAnswer,
    gaveUp: () => new UpstreamTimeoutError('no answer within the page deadline', SITE_URL),
    logger,
    now,
    staleIfErrorMs: LIFETIMES.keepMs,
    codeOf: (error) => describeError(error).code,
    onLookup: (result) => lookups.push(result),
    onStale: (reason) => servedStale.push(reason),
  });
  return { dataDir, clock, lifecycle, fetches, lookups, servedStale, close: () => file.close() };
}

function answerOf(text: string, fetchedAt: number): CatalogAnswer {
  const meta = JSON.stringify({ source: SITE_URL, fetchedAt: new Date(fetchedAt).toISOString() });
  return {
    body: Buffer.from(`{"status":"success","data":{"text":"${text}"},"meta":${meta}}`),
    etag: `W/"${text}"`,
    fetchedAt,
    ttlSeconds: TTL_S,
  };
}

const textOf = (result: CatalogResult | undefined) =>
  (JSON.parse(result!.answer.body.toString('utf8')) as { data: { text: string } }).data.text;
const metaOf = (result: CatalogResult | undefined) =>
  (JSON.parse(result!.answer.body.toString('utf8')) as { meta: Record<string, unknown> }).meta;
// A settled fetch reaches the cache after the answers store has kept it, a few turns later.
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('the answer lifecycle', () => {
  it('answers HIT within the TTL, MISS when fetched for the request, STALE past the TTL; a lookup without side effects sees the same and starts, counts and keeps nothing', async () => {
    const { clock, lifecycle, fetches, lookups, servedStale, close } = setUp();
    const input = { page: 1 };

    expect(lifecycle.answer(home, input, { sideEffects: false })).toBeUndefined();
    expect(fetches).toHaveLength(0);
    expect(lookups).toEqual([]);

    const miss = lifecycle.answer(home, input);
    expect(miss).toBeInstanceOf(Promise);
    expect(fetches).toHaveLength(1);
    fetches[0]!.succeed('first');
    const fetched = await miss;
    expect(fetched).toMatchObject({ cacheStatus: 'MISS', upstream: { url: SITE_URL, status: 200 } });
    expect(textOf(fetched)).toBe('first');
    expect(lookups).toEqual(['miss']);

    const heldFresh = lifecycle.answer(home, input, { sideEffects: false });
    expect(heldFresh).toEqual({ answer: fetched.answer, cacheStatus: 'HIT' });
    expect(lifecycle.answer(home, input)).toEqual({ answer: fetched.answer, cacheStatus: 'HIT' });
    expect(lookups).toEqual(['miss', 'hit']);

    clock.now = T0 + PAST_TTL_MS;
    expect(lifecycle.answer(home, input, { sideEffects: false })).toEqual({ answer: fetched.answer, cacheStatus: 'STALE' });
    expect(fetches).toHaveLength(1);
    expect(lookups).toEqual(['miss', 'hit']);
    // Counted: served at once, stale, and one refresh for every request while it runs.
    expect(lifecycle.answer(home, input)).toEqual({ answer: fetched.answer, cacheStatus: 'STALE' });
    expect(lifecycle.answer(home, input)).toEqual({ answer: fetched.answer, cacheStatus: 'STALE' });
    expect(fetches).toHaveLength(2);
    expect(lookups).toEqual(['miss', 'hit', 'stale', 'stale']);

    // The refresh fails because of the site: the stale answer now says so, with or without side effects.
    fetches[1]!.fail(new UpstreamTimeoutError('the site took too long', SITE_URL));
    await settled();
    const heldAfterFailure = lifecycle.answer(home, input, { sideEffects: false });
    expect(heldAfterFailure).toMatchObject({ cacheStatus: 'STALE', staleReason: 'UPSTREAM_TIMEOUT' });
    expect(metaOf(heldAfterFailure).stale).toEqual({ since: new Date(T0).toISOString(), reason: 'UPSTREAM_TIMEOUT' });
    expect(lifecycle.lastGood()).toBeUndefined();
    expect(servedStale).toEqual([]);
    expect(fetches).toHaveLength(2);

    const counted = lifecycle.answer(home, input);
    expect(counted).toMatchObject({ cacheStatus: 'STALE', staleReason: 'UPSTREAM_TIMEOUT' });
    // The same stale form, built once per answer.
    expect((counted as CatalogResult).answer).toBe(heldAfterFailure!.answer);
    expect(lifecycle.lastGood()).toEqual({ since: clock.now, lastAt: clock.now, lastReason: 'UPSTREAM_TIMEOUT', served: 1 });
    expect(servedStale).toEqual(['UPSTREAM_TIMEOUT']);
    expect(fetches).toHaveLength(3);

    // A refresh that succeeds ends it all: fresh again, and no longer served from the kept copy.
    fetches[2]!.succeed('second');
    await settled();
    const refreshed = lifecycle.answer(home, input, { sideEffects: false });
    expect(refreshed).toMatchObject({ cacheStatus: 'HIT' });
    expect(textOf(refreshed)).toBe('second');
    expect(lifecycle.lastGood()).toBeUndefined();
    close();
  });

  it('serves a failed-recently key its kept copy at once, and only a counted lookup retries its page, at most once per period', async () => {
    const { clock, lifecycle, fetches, lookups, servedStale, close } = setUp();
    const input = { page: 2 };
    const first = lifecycle.answer(home, input);
    fetches[0]!.succeed('kept');
    const kept = (await first).answer;

    clock.now = T0 + PAST_STALE_WINDOW_MS;
    expect(lifecycle.answer(home, input, { sideEffects: false })).toBeUndefined();
    const failing = lifecycle.answer(home, input);
    expect(fetches).toHaveLength(2);
    fetches[1]!.fail(new UpstreamBadResponseError('the site answered 500', SITE_URL, 500));
    const standIn = await failing;
    expect(standIn).toMatchObject({ cacheStatus: 'STALE', staleReason: 'UPSTREAM_ERROR' });
    expect(textOf(standIn)).toBe('kept');
    expect(metaOf(standIn).stale).toEqual({ since: new Date(kept.fetchedAt).toISOString(), reason: 'UPSTREAM_ERROR' });
    expect(lifecycle.lastGood()?.served).toBe(1);
    expect(lookups).toEqual(['miss', 'miss']);

    // Within the retry period: the kept copy at once, and no fetch, counted or not.
    expect(lifecycle.answer(home, input, { sideEffects: false })).toEqual(standIn);
    expect(lifecycle.answer(home, input)).toEqual(standIn);
    expect(fetches).toHaveLength(2);
    expect(lifecycle.lastGood()?.served).toBe(2);
    expect(servedStale).toEqual(['UPSTREAM_ERROR', 'UPSTREAM_ERROR']);
    expect(lookups).toEqual(['miss', 'miss', 'stale']);

    // Past it: a lookup without side effects still retries nothing; the next counted one retries once.
    clock.now += FAILED_FETCH_RETRY_MS;
    expect(lifecycle.answer(home, input, { sideEffects: false })).toEqual(standIn);
    expect(fetches).toHaveLength(2);
    expect(lifecycle.answer(home, input)).toEqual(standIn);
    expect(lifecycle.answer(home, input)).toEqual(standIn);
    expect(fetches).toHaveLength(3);
    expect(lifecycle.lastGood()?.served).toBe(4);

    fetches[2]!.succeed('back');
    await settled();
    const recovered = lifecycle.answer(home, input, { sideEffects: false });
    expect(recovered).toMatchObject({ cacheStatus: 'HIT' });
    expect(textOf(recovered)).toBe('back');
    expect(lifecycle.lastGood()).toBeUndefined();
    close();
  });

  it('answers an answer kept in DATA_DIR as HIT within its TTL after a restart, and STALE (with one refresh) past it: no MISS without a fetch', async () => {
    const before = setUp();
    const input = { page: 3 };
    const fetching = before.lifecycle.answer(home, input);
    before.fetches[0]!.succeed('before the restart');
    await fetching;
    before.close();

    const clock = { now: T0 + 1_000 };
    const after = setUp(before.dataDir, clock);
    const hit = await after.lifecycle.answer(home, input);
    expect(hit.cacheStatus).toBe('HIT');
    expect(hit.upstream).toBeUndefined();
    expect(textOf(hit)).toBe('before the restart');
    expect(after.fetches).toHaveLength(0);
    after.close();

    const later = setUp(before.dataDir, { now: T0 + PAST_TTL_MS });
    const stale = await later.lifecycle.answer(home, input);
    expect(stale).toMatchObject({ cacheStatus: 'STALE' });
    expect(stale.staleReason).toBeUndefined();
    expect(textOf(stale)).toBe('before the restart');
    expect(later.fetches).toHaveLength(1);
    later.close();
  });
});

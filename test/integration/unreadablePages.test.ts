import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorEnvelope } from '../../src/contract/schemas.js';
import { PARSE_DEADLINE_MS } from '../../src/catalog/pageParser.js';
import { FAILED_PAGE_MEMORY_MS } from '../../src/catalog/answerLifecycle.js';
import type { PathologicalShape } from '../simulator/pages/pathological.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';
import { untilOnRealTimers } from '../helpers/waiting.js';

// Pages that must never hold the service: cut off, oversized, or shaped so that parsing them takes
// far more than linear time. Each gets a typed 502 in the envelope when the parse deadline passes,
// while /health and cached hits keep answering; a burst of requests for one costs one upstream fetch.
// How long that takes in milliseconds is the bench's (bad-pages section).

let stack: TestStack;
let server: Server;
let origin: string;
let clock: number;

// The 600-episode series page: the size of the real site's longest pages (~320 KB).
const SERIES_PATH = '/seri/heaven-devouring-sovereign/';
const SERIES_URL = '/catalog/series/heaven-devouring-sovereign';

beforeEach(async () => {
  clock = Date.now();
  stack = await startTestStack({ now: () => clock });
  server = stack.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  realTimers();
  await new Promise((resolve) => server.close(resolve));
  await stack.close();
});

/**
 * Real timers again, in this order: the setTimeout spy (parseDeadlineByHand) wraps the faked one, so
 * restored after the fake timers were it would put the faked setTimeout back for good, for every file
 * that runs next in this worker.
 */
function realTimers(): void {
  vi.restoreAllMocks();
  vi.useRealTimers();
}

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(origin + path);
  return { status: response.status, body: await response.json() };
}

/**
 * Fakes the timers and returns a function that waits until a page's parse has started on its thread
 * (its deadline timer is set): from then on the parse deadline passes only when the test moves the
 * faked time, however slow the machine.
 */
function parseDeadlineByHand(): () => Promise<void> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const timers = vi.spyOn(globalThis, 'setTimeout');
  return () => untilOnRealTimers(() => timers.mock.calls.some(([, ms]) => ms === PARSE_DEADLINE_MS));
}

/** Requests `path` and tells whether its answer has come. */
function pending(path: string) {
  const answer = get(path);
  const state = { settled: false };
  void answer.finally(() => (state.settled = true));
  return { answer, state };
}

/** Requests `path` and waits for the page's parse to be under way, answered before its deadline. */
async function parseUnderWay(path: string) {
  const parseStarted = parseDeadlineByHand();
  const bad = pending(path);
  await parseStarted();
  return bad;
}

function expectUpstreamError(answer: { status: number; body: unknown }, message: string): void {
  expect(answer.status).toBe(502);
  const envelope = ErrorEnvelope.parse(answer.body);
  expect(envelope.error.code).toBe('UPSTREAM_ERROR');
  expect(envelope.error.message).toBe(message);
}

const CUT_OFF = 'The upstream page arrived cut off before its end. Try again in a minute; report it if it keeps happening.';
const UNPARSABLE =
  'The upstream page could not be read within the time this service gives one page (its markup is malformed). Please report it.';
const TOO_LARGE =
  'The upstream page is larger than any page of the catalog, so this service does not read it. Try again later; report it if it keeps happening.';

describe('a page cut off before its end', () => {
  it('is an error on the first request and on the second, never cached: the whole page answers once it is whole again', async () => {
    stack.simulator.setFaults([{ kind: 'cut-off', fraction: 0.2, pathPrefix: SERIES_PATH }]);
    expectUpstreamError(await get(SERIES_URL), CUT_OFF);
    expectUpstreamError(await get(SERIES_URL), CUT_OFF);
    // Remembered as failed: the second request cost no fetch.
    expect(stack.simulator.hitCount(SERIES_PATH)).toBe(1);

    stack.simulator.clearFaults();
    clock += FAILED_PAGE_MEMORY_MS + 1;
    const whole = await get(SERIES_URL);
    expect(whole.status).toBe(200);
    expect((whole.body as { data: { episodes: unknown[] } }).data.episodes).toHaveLength(600);
    expect(stack.simulator.hitCount(SERIES_PATH)).toBe(2);
  });
});

describe('a page no parser can read in bounded time', () => {
  it('200,000 nested elements: a typed 502 at the parse deadline, while /health and a cached hit answer, and ten requests cost one fetch', async () => {
    expect((await get('/catalog/genres')).status).toBe(200);
    stack.simulator.setFaults([{ kind: 'pathological', shape: 'deep-nesting', pathPrefix: SERIES_PATH }]);

    const bad = await parseUnderWay(SERIES_URL);
    // The page is being parsed and its deadline has not passed: /health and a cached hit answer all the same.
    for (let round = 0; round < 5; round++) {
      for (const path of ['/health', '/catalog/genres']) expect((await get(path)).status, `${path} while the page was parsed`).toBe(200);
    }
    expect(bad.state.settled).toBe(false);
    // The deadline passes: the parse is stopped and the request gets its typed error.
    await vi.advanceTimersByTimeAsync(PARSE_DEADLINE_MS);
    expectUpstreamError(await bad.answer, UNPARSABLE);

    const more = await Promise.all(Array.from({ length: 9 }, () => get(SERIES_URL)));
    for (const other of more) expectUpstreamError(other, UNPARSABLE);
    expect(stack.simulator.hitCount(SERIES_PATH)).toBe(1);
  });

  it.each(['unclosed-tags', 'unclosed-list'] satisfies PathologicalShape[])(
    '%s (~1 MB): a typed 502 at the parse deadline, one fetch for three requests',
    async (shape) => {
      stack.simulator.setFaults([{ kind: 'pathological', shape, pathPrefix: SERIES_PATH }]);
      const first = await parseUnderWay(SERIES_URL);
      await vi.advanceTimersByTimeAsync(PARSE_DEADLINE_MS - 1);
      expect(first.state.settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expectUpstreamError(await first.answer, UNPARSABLE);
      expectUpstreamError(await get(SERIES_URL), UNPARSABLE);
      expectUpstreamError(await get(SERIES_URL), UNPARSABLE);
      expect(stack.simulator.hitCount(SERIES_PATH)).toBe(1);
    },
  );

  it('a healthy page parses as before right after one was stopped at the deadline', async () => {
    stack.simulator.setFaults([{ kind: 'pathological', shape: 'deep-nesting', pathPrefix: SERIES_PATH }]);
    const bad = await parseUnderWay(SERIES_URL);
    await vi.advanceTimersByTimeAsync(PARSE_DEADLINE_MS);
    expectUpstreamError(await bad.answer, UNPARSABLE);
    realTimers();
    const episode = await get('/catalog/episode/heaven-devouring-sovereign-episode-600-subtitle-indonesia');
    expect(episode.body).toMatchObject({ status: 'success' });
    expect(episode.status).toBe(200);
    expect((episode.body as { data: { episode: number } }).data.episode).toBe(600);
  });
});

describe('a page over the size bound', () => {
  it('is a typed 502, read no further than the bound, and not fetched again for the next request', async () => {
    stack.simulator.setFaults([{ kind: 'pathological', shape: 'oversize', pathPrefix: SERIES_PATH }]);
    expectUpstreamError(await get(SERIES_URL), TOO_LARGE);
    expectUpstreamError(await get(SERIES_URL), TOO_LARGE);
    expect(stack.simulator.hitCount(SERIES_PATH)).toBe(1);
  });
});

import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../src/contract/schemas.js';
import { PARSE_DEADLINE_MS } from '../../src/catalog/pageParser.js';
import { FAILED_PAGE_MEMORY_MS } from '../../src/catalog/service.js';
import type { PathologicalShape } from '../simulator/pages/pathological.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// Pages that must never hold the service: cut off, oversized, or shaped so that parsing them takes
// far more than linear time. Each gets a typed 502 in the envelope, quickly, while /health and
// cached hits keep answering; a burst of requests for one costs one upstream fetch.

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
  await new Promise((resolve) => server.close(resolve));
  await stack.close();
});

async function get(path: string): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const response = await fetch(origin + path);
  const body: unknown = await response.json();
  return { status: response.status, body, ms: performance.now() - started };
}

function expectUpstreamError(answer: { status: number; body: unknown }, message: string): void {
  expect(answer.status).toBe(502);
  const envelope = ErrorEnvelope.parse(answer.body);
  expect(envelope.error.code).toBe('UPSTREAM_ERROR');
  expect(envelope.error.message).toBe(message);
}

const CUT_OFF = 'The upstream page arrived cut off before its end. Try again in a minute; report it if it keeps happening.';
const UNPARSABLE = 'The upstream page could not be read within the time this service gives one page (its markup is malformed). Please report it.';
const TOO_LARGE = 'The upstream page is larger than any page of the catalog, so this service does not read it. Try again later; report it if it keeps happening.';

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
  it('200,000 nested elements: a typed 502 within seconds, while /health and a cached hit answer at once, and ten requests cost one fetch', async () => {
    expect((await get('/catalog/genres')).status).toBe(200);
    stack.simulator.setFaults([{ kind: 'pathological', shape: 'deep-nesting', pathPrefix: SERIES_PATH }]);

    const bad = get(SERIES_URL);
    const beside: Array<{ path: string; status: number; ms: number }> = [];
    let done = false;
    void bad.finally(() => (done = true));
    while (!done) {
      for (const path of ['/health', '/catalog/genres']) {
        const answer = await get(path);
        beside.push({ path, status: answer.status, ms: answer.ms });
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const answer = await bad;
    expectUpstreamError(answer, UNPARSABLE);
    // The parse deadline (2 s), the fetch of a 976 KB page and a thread to run it, on a loaded machine:
    // generous, where the page in the process would take ~40 s.
    expect(answer.ms).toBeLessThan(PARSE_DEADLINE_MS + 8000);
    expect(beside.length).toBeGreaterThan(4);
    for (const entry of beside) {
      expect(entry.status).toBe(200);
      // Generous for a loaded machine; waiting for the parse would take its whole deadline (2 s), and in the process 40 s.
      expect(entry.ms, `${entry.path} while the page was parsed`).toBeLessThan(500);
    }

    const more = await Promise.all(Array.from({ length: 9 }, () => get(SERIES_URL)));
    for (const other of more) expectUpstreamError(other, UNPARSABLE);
    expect(stack.simulator.hitCount(SERIES_PATH)).toBe(1);
  });

  it.each(['unclosed-tags', 'unclosed-list'] satisfies PathologicalShape[])('%s (~1 MB): a typed 502 within seconds, one fetch for three requests', async (shape) => {
    stack.simulator.setFaults([{ kind: 'pathological', shape, pathPrefix: SERIES_PATH }]);
    const first = await get(SERIES_URL);
    expectUpstreamError(first, UNPARSABLE);
    expect(first.ms).toBeLessThan(PARSE_DEADLINE_MS + 8000);
    expectUpstreamError(await get(SERIES_URL), UNPARSABLE);
    expectUpstreamError(await get(SERIES_URL), UNPARSABLE);
    expect(stack.simulator.hitCount(SERIES_PATH)).toBe(1);
  });

  it('a healthy page parses as before right after one was stopped at the deadline', async () => {
    stack.simulator.setFaults([{ kind: 'pathological', shape: 'deep-nesting', pathPrefix: SERIES_PATH }]);
    expectUpstreamError(await get(SERIES_URL), UNPARSABLE);
    const episode = await get('/catalog/episode/heaven-devouring-sovereign-episode-600-subtitle-indonesia');
    expect(episode.body).toMatchObject({ status: "success" });
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

import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/config/logger.js';
import { createMetrics } from '../../../src/metrics.js';
import { createMemoryClearances } from '../../../src/stores/clearance/memory.js';
import { clearanceExpiry, type Clearance } from '../../../src/upstream/challenge/clearance.js';
import { createChallengeGate } from '../../../src/upstream/challenge/gate.js';
import type { ChallengeSolver } from '../../../src/upstream/challenge/solver.js';
import { requestHeaders } from '../../../src/upstream/challenge/headers.js';
import { createUpstreamMonitor } from '../../../src/upstream/monitor.js';
import { startSimulator, type Simulator } from '../../simulator/server.js';

const AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const OTHER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/155.0.0.0 Safari/537.36';

let simulator: Simulator;
beforeAll(async () => {
  simulator = await startSimulator({ wall: {} });
});
afterAll(() => simulator.close());

/** A solver that earns the wall's cookie for `cookieAgent` and reports `reportedAgent`, one pair per solve. */
function scriptedSolver(pairs: [cookieAgent: string, reportedAgent: string][]): ChallengeSolver & { calls: number } {
  const solver = {
    kind: 'chromium' as const,
    calls: 0,
    async solve(url: string): Promise<Clearance> {
      const [cookieAgent, reportedAgent] = pairs[solver.calls++] ?? [AGENT, AGENT];
      const cookies = [
        {
          name: 'cf_clearance',
          value: simulator.mintClearance('127.0.0.1', cookieAgent),
          domain: '127.0.0.1',
          path: '/',
          expires: -1,
          httpOnly: true,
          secure: false,
        },
      ];
      const obtainedAt = Date.now();
      return {
        origin: new URL(url).origin,
        userAgent: reportedAgent,
        clientHints: {},
        cookies,
        obtainedAt,
        expiresAt: clearanceExpiry(cookies, obtainedAt),
      };
    },
    openTransport: () => Promise.reject(new Error('not used')),
    close: () => Promise.resolve(),
  };
  return solver;
}

function gateWith(solver: ChallengeSolver | null) {
  const monitor = createUpstreamMonitor({
    metrics: createMetrics(),
    origin: simulator.origin,
    solver: { kind: 'chromium', available: solver !== null },
  });
  return {
    gate: createChallengeGate({ solver, monitor, logger: createLogger('silent'), browserModeMs: 60_000, shared: createMemoryClearances() }),
    monitor,
  };
}

const signal = () => AbortSignal.timeout(5000);

describe('challenge gate', () => {
  it('solves again when the clearance in hand is bound to a different User-Agent', async () => {
    const solver = scriptedSolver([
      [OTHER_AGENT, AGENT],
      [AGENT, AGENT],
    ]);
    const { gate, monitor } = gateWith(solver);
    const url = `${simulator.origin}/ongoing/`;
    const stale = await gate.cleared(url, undefined, signal());
    // The wall checks the cookie against the User-Agent that comes with it: refused.
    expect((await axios.get(url, { headers: requestHeaders(stale), validateStatus: () => true })).status).toBe(403);
    const fresh = await gate.cleared(url, stale, signal());
    expect(solver.calls).toBe(2);
    expect(gate.clearance(simulator.origin)).toBe(fresh);
    expect((await axios.get(url, { headers: requestHeaders(fresh), validateStatus: () => true })).status).toBe(200);
    expect(monitor.status().solves).toMatchObject({ ok: 2, failed: 0 });
  });

  it('hands a newer clearance to a request that sent an older one, without solving', async () => {
    const solver = scriptedSolver([]);
    const { gate } = gateWith(solver);
    const url = `${simulator.origin}/`;
    const first = await gate.cleared(url, undefined, signal());
    expect(await gate.cleared(url, undefined, signal())).toBe(first);
    expect(solver.calls).toBe(1);
  });

  it('shares one solve among concurrent challenged requests', async () => {
    const solver = scriptedSolver([]);
    const { gate } = gateWith(solver);
    const all = await Promise.all(Array.from({ length: 10 }, () => gate.cleared(`${simulator.origin}/`, undefined, signal())));
    expect(new Set(all).size).toBe(1);
    expect(solver.calls).toBe(1);
  });

  it('refuses at once, with a Retry-After, when there is no solver', async () => {
    const { gate } = gateWith(null);
    await expect(gate.cleared(`${simulator.origin}/`, undefined, signal())).rejects.toMatchObject({
      name: 'UpstreamBlockedError',
      reason: 'no-solver',
      retryAfterSeconds: 60,
    });
  });

  it("sends the earning browser's User-Agent, client hints and cookies with a clearance", () => {
    const clearance: Clearance = {
      origin: 'https://a.example',
      userAgent: AGENT,
      clientHints: { 'sec-ch-ua': '"Chromium";v="156"', 'sec-ch-ua-platform': '"Linux"' },
      cookies: [
        { name: 'cf_clearance', value: 'abc', domain: 'a.example', path: '/', expires: -1, httpOnly: true, secure: true },
        { name: '__cf_bm', value: 'xyz', domain: 'a.example', path: '/', expires: -1, httpOnly: true, secure: true },
      ],
      obtainedAt: 0,
      expiresAt: 1,
    };
    const headers = requestHeaders(clearance);
    expect(headers['User-Agent']).toBe(AGENT);
    expect(headers.Cookie).toBe('cf_clearance=abc; __cf_bm=xyz');
    expect(headers['sec-ch-ua']).toBe('"Chromium";v="156"');
    expect(headers['Sec-CH-UA']).toBeUndefined();
    expect(headers['Sec-CH-UA-Mobile']).toBeUndefined();
    expect(requestHeaders(undefined)['Sec-CH-UA-Platform']).toBe('"Windows"');
  });
});

describe('clearanceExpiry', () => {
  const obtainedAt = Date.parse('2026-11-21T10:00:00Z');
  const cookie = (expires: number) => [{ name: 'cf_clearance', value: 'v', domain: 'd', path: '/', expires, httpOnly: true, secure: true }];
  it.each([
    ['a 30-minute cookie: a minute early', cookie(obtainedAt / 1000 + 1800), obtainedAt + 25 * 60_000],
    ['a 10-minute cookie', cookie(obtainedAt / 1000 + 600), obtainedAt + 540_000],
    ['a 2.5-second cookie: a fifth early', cookie(obtainedAt / 1000 + 2.5), obtainedAt + 2000],
    ['a session cookie: 25 minutes at most', cookie(-1), obtainedAt + 25 * 60_000],
    ['no clearance cookie', [], obtainedAt + 25 * 60_000],
  ])('%s', (_name, cookies, expected) => {
    expect(clearanceExpiry(cookies, obtainedAt)).toBe(expected);
  });
});

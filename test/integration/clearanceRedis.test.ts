import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Clearance } from '../../src/upstream/challenge/clearance.js';
import { createRedisClearances } from '../../src/stores/clearance/redis.js';
import { redisForSuite } from '../helpers/redisSuite.js';

// The clearance store against a real redis-server: what one instance solved, another reads back
// whole; and two instances challenged at once run one solve between them.

const { connect } = redisForSuite();

function clearance(origin: string, obtainedAt: number, lifeMs = 60_000): Clearance {
  return {
    origin,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    clientHints: { 'sec-ch-ua': '"Chromium";v="156"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Linux"' },
    cookies: [
      {
        name: 'cf_clearance',
        value: `token-${obtainedAt}`,
        domain: '.example.test',
        path: '/',
        expires: Math.round((obtainedAt + lifeMs) / 1000),
        httpOnly: true,
        secure: true,
      },
    ],
    obtainedAt,
    expiresAt: obtainedAt + lifeMs,
  };
}

describe('shared challenge clearances', () => {
  it('round-trips a clearance whole between two instances, and forgets it when it expires', async () => {
    const one = createRedisClearances(await connect(), 5_000);
    const other = createRedisClearances(await connect(), 5_000);
    // Long enough to be read back (each command times out at 500 ms); then waited out (Redis expires it by its own clock).
    const solved = clearance('https://round.example.test', Date.now(), 1_000);
    await one.write(solved);
    expect(await other.read('https://round.example.test')).toEqual(solved);
    expect(await other.read('https://other.example.test')).toBeUndefined();
    await sleep(solved.expiresAt - Date.now() + 50);
    expect(await other.read('https://round.example.test')).toBeUndefined();
  });

  it('runs one solve for two instances challenged at once, and hands the result to both', async () => {
    const origin = 'https://once.example.test';
    const one = createRedisClearances(await connect(), 5_000);
    const other = createRedisClearances(await connect(), 5_000);
    let solves = 0;
    const solve = async () => {
      solves++;
      await sleep(100);
      return clearance(origin, Date.now());
    };
    const [first, second] = await Promise.all([one.solveOnce(origin, undefined, solve), other.solveOnce(origin, undefined, solve)]);
    expect(solves).toBe(1);
    expect(first.clearance).toEqual(second.clearance);
    expect([first.solvedHere, second.solvedHere].sort()).toEqual([false, true]);
  });

  it('solves again when the stored clearance is the one that was just refused', async () => {
    const origin = 'https://refused.example.test';
    const shared = createRedisClearances(await connect(), 5_000);
    const refused = clearance(origin, Date.now() - 1_000);
    await shared.write(refused);
    const fresh = clearance(origin, Date.now());
    const outcome = await shared.solveOnce(origin, refused, async () => fresh);
    expect(outcome).toEqual({ clearance: fresh, solvedHere: true });
    expect(await shared.read(origin)).toEqual(fresh);
  });
});

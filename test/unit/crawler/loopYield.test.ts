import { describe, expect, it } from 'vitest';
import { BUSY_REQUESTS_PER_S, LOOK_SLICE_MS, YIELD_AT_MOST_MS, loopYield, usersBusy } from '../../../src/crawler/loopYield.js';

/** A yield driven by a list of looks (true: users kept the service busy) on a clock that only sleeping moves. */
function yieldOver(looks: boolean[]) {
  let clock = 0;
  const slept: number[] = [];
  const pending = [...looks];
  const yieldToUsers = loopYield({
    busySinceLastLook: () => pending.shift() ?? false,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
    now: () => clock,
    stopped: () => false,
  });
  return { yieldToUsers, slept };
}

/**
 * An idle look's length: long enough that the worker's own chores in it (a message to the test runner,
 * a garbage collection) stay far below the busy share, as a 30 ms look did not on a loaded machine.
 */
const IDLE_LOOK_MS = 150;

/** Leaves the event loop idle for `ms`. */
async function idleFor(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Keeps the event loop busy for `ms`. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe("the crawler's yield to users", () => {
  it('does not wait when users left room', async () => {
    const { yieldToUsers, slept } = yieldOver([false]);
    expect(await yieldToUsers()).toBe(0);
    expect(slept).toEqual([]);
  });

  it('waits slice by slice while users keep the service busy, and goes on as soon as they leave room', async () => {
    const { yieldToUsers, slept } = yieldOver([true, true, true, false]);
    expect(await yieldToUsers()).toBe(3);
    expect(slept).toEqual([LOOK_SLICE_MS, LOOK_SLICE_MS, LOOK_SLICE_MS]);
  });

  it('goes on after its floor under a flood that never lets up', async () => {
    const { yieldToUsers, slept } = yieldOver(Array.from({ length: 1000 }, () => true));
    expect(await yieldToUsers()).toBe(YIELD_AT_MOST_MS / LOOK_SLICE_MS);
    expect(slept.reduce((sum, ms) => sum + ms, 0)).toBe(YIELD_AT_MOST_MS);
  });

  it('counts users as busy when they were served on a busy event loop, or sent a flood of requests', async () => {
    const requests = { count: 0 };
    let clock = 0;
    const busy = usersBusy(requests, () => clock);
    // A busy loop with no user request: the crawler's own work, or a site simulated in the same process.
    spin(30);
    expect(busy()).toBe(false);
    // A user request on an idle loop: a health check.
    requests.count++;
    clock += 1000;
    await idleFor(IDLE_LOOK_MS);
    expect(busy()).toBe(false);
    // Users served while the loop was busy.
    requests.count++;
    clock += 1000;
    spin(30);
    expect(busy()).toBe(true);
    // Nothing since that look.
    clock += 1000;
    await idleFor(IDLE_LOOK_MS);
    expect(busy()).toBe(false);
    // A flood on a loop that looks idle (the machine is short of CPU): BUSY_REQUESTS_PER_S and more.
    requests.count += BUSY_REQUESTS_PER_S + 1;
    clock += 1000;
    await idleFor(IDLE_LOOK_MS);
    expect(busy()).toBe(true);
    // Fewer in the same time: a page load.
    requests.count += BUSY_REQUESTS_PER_S - 1;
    clock += 1000;
    await idleFor(IDLE_LOOK_MS);
    expect(busy()).toBe(false);
  });
});

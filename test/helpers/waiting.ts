import { expect } from 'vitest';

/** A clock the test moves by hand; the cache and its headers read it. */
export function manualClock() {
  const clock = { offsetMs: 0, now: () => Date.now() + clock.offsetMs };
  return clock;
}

/** Waits until `condition` holds (for what the service does after answering), and fails the test if it never does. */
export async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

/**
 * `until` for a test whose timers are faked: it waits on turns of the event loop (setImmediate,
 * which the tests leave real), so it moves no faked time, as vi.waitFor would.
 */
export async function untilOnIo(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 50_000 && !condition(); turn++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

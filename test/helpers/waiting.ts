import { setTimeout as realSleep } from 'node:timers/promises';
import { expect } from 'vitest';

/** A clock the test moves by hand; the cache and its headers read it. */
export function manualClock() {
  const clock = { offsetMs: 0, now: () => Date.now() + clock.offsetMs };
  return clock;
}

/**
 * Waits until `condition` holds (for what the service does after answering, such as a background
 * fetch and parse), and fails the test if it never does: after at least ten seconds, which only a
 * hang outlasts.
 */
export async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1_000 && !(await condition()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(await condition()).toBe(true);
}

/**
 * Waits until a service says Redis is `state` on /health/upstream, as `healthOf` reads that body
 * (through supertest or over the network): what a test waits for after starting or stopping Redis.
 */
export function untilRedisIs(healthOf: () => Promise<{ redis?: unknown }>, state: 'up' | 'down'): Promise<void> {
  return until(async () => (await healthOf()).redis === state);
}

/**
 * `until` for a test whose timers are faked: it polls on node:timers/promises, which vi.useFakeTimers
 * leaves real, so it moves no faked time (vi.waitFor would) and still gives up, after ten seconds.
 */
export async function untilOnRealTimers(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 2_000 && !condition(); tries++) await realSleep(5);
  expect(condition()).toBe(true);
}

import * as timers from 'node:timers';
import { afterAll, expect } from 'vitest';

// Each test file's setup: the files of a shared worker (isolate: false) share its globals, so a file
// that leaves a faked or spied timer function behind (a spy restored after the fake timers it wraps
// puts the fake back) makes every file after it in that worker wait on timers that never fire. The
// file that left it fails here instead.
const TIMER_FUNCTIONS = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate'] as const;

afterAll(() => {
  const left = TIMER_FUNCTIONS.filter((name) => globalThis[name] !== timers[name]);
  expect(left, 'timer functions this file left faked or spied').toEqual([]);
});

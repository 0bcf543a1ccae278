import { describe, expect, it } from 'vitest';
import { builtAtMostEvery } from '../../../src/http/routes/status.js';

describe('builtAtMostEvery', () => {
  it('builds once per period, shares a build under way, and builds again after the period', async () => {
    const clock = { now: 1_000 };
    const latest = builtAtMostEvery<number>(5_000, () => clock.now);
    let builds = 0;
    const build = async () => {
      builds += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return builds;
    };
    expect(await Promise.all(Array.from({ length: 50 }, () => latest(build)))).toEqual(Array(50).fill(1));
    clock.now = 5_999;
    expect(await latest(build)).toBe(1);
    clock.now = 6_000;
    expect(await latest(build)).toBe(2);
    expect(builds).toBe(2);
    // A clock set back starts a new period rather than serving the old build for ever.
    clock.now = 0;
    expect(await latest(build)).toBe(3);
  });

  it('does not keep a failed build: the next call builds again', async () => {
    const latest = builtAtMostEvery<string>(5_000, () => 0);
    await expect(latest(() => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(await latest(async () => 'page')).toBe('page');
    expect(await latest(async () => 'another page')).toBe('page');
  });
});

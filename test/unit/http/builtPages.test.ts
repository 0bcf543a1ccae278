import { describe, expect, it } from 'vitest';
import { builtAtMostEvery, builtOncePerKey, MarkedText, OriginBodies, pacedBuild } from '../../../src/http/builtPages.js';

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

describe('builtOncePerKey', () => {
  it('builds each key once, shares a build under way, and keeps no failed build', async () => {
    const built = builtOncePerKey<string>();
    const builds: string[] = [];
    const build = (key: string) => async () => {
      builds.push(key);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return `page ${key}`;
    };
    expect(await Promise.all([built('a', build('a')), built('a', build('a')), built('b', build('b'))])).toEqual([
      'page a',
      'page a',
      'page b',
    ]);
    expect(await built('a', build('a'))).toBe('page a');
    expect(builds).toEqual(['a', 'b']);
    await expect(built('c', () => Promise.reject(new Error('template broken')))).rejects.toThrow('template broken');
    expect(await built('c', build('c'))).toBe('page c');
  });
});

describe('MarkedText', () => {
  it('puts the value wherever the mark was, and nowhere else', () => {
    const text = new MarkedText(
      '<a href="https://origin.invalid/docs">https://origin.invalid</a> {"url":"https://origin.invalid/x"}',
      'https://origin.invalid',
    );
    expect(text.with('http://api.test:8080')).toBe(
      '<a href="http://api.test:8080/docs">http://api.test:8080</a> {"url":"http://api.test:8080/x"}',
    );
    expect(new MarkedText('no mark', 'https://origin.invalid').with('http://api.test')).toBe('no mark');
  });
});

describe('OriginBodies', () => {
  const noProxy = () => false;

  it('without PUBLIC_URL builds once with a placeholder, and gives each origin its own body', async () => {
    const origins: string[] = [];
    const bodies = await OriginBodies.build({ trustProxy: noProxy, publicUrl: undefined }, (origin) => {
      origins.push(origin);
      return `<p>${origin}/catalog</p>`;
    });
    expect(bodies.for('http://a.test').toString()).toBe('<p>http://a.test/catalog</p>');
    expect(bodies.for('https://b.test:8443').toString()).toBe('<p>https://b.test:8443/catalog</p>');
    expect(bodies.for('http://a.test')).toBe(bodies.for('http://a.test'));
    expect(origins).toHaveLength(1);
  });

  it('with PUBLIC_URL builds one body on it, whatever origin is asked for', async () => {
    const bodies = await OriginBodies.build({ trustProxy: noProxy, publicUrl: 'https://api.example' }, (origin) => `<p>${origin}</p>`);
    expect(bodies.for('http://forged.test').toString()).toBe('<p>https://api.example</p>');
  });
});

describe('pacedBuild', () => {
  it('builds after the call, shares one build among the calls waiting for it, and paces the next', async () => {
    const state = { counter: 0, builds: 0 };
    const latest = pacedBuild(50, async () => {
      state.builds += 1;
      return state.counter;
    });
    const burst = Array.from({ length: 20 }, () => latest());
    // A change made after the calls, before the build runs, is in their answer: never stale.
    state.counter = 1;
    expect(await Promise.all(burst)).toEqual(Array(20).fill(1));
    const second = Array.from({ length: 20 }, () => latest());
    state.counter = 2;
    expect(await Promise.all(second)).toEqual(Array(20).fill(2));
    expect(state.builds).toBe(2);
  });

  it('passes a failed build to its callers and builds again for the next', async () => {
    let fail = true;
    const latest = pacedBuild(10, async () => {
      if (fail) throw new Error('registry broken');
      return 'metrics';
    });
    await expect(latest()).rejects.toThrow('registry broken');
    fail = false;
    expect(await latest()).toBe('metrics');
  });
});

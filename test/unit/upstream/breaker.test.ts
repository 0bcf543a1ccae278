import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMetrics } from '../../../src/metrics.js';
import { createOriginBreakers } from '../../../src/upstream/breaker.js';
import { UpstreamUnavailableError } from '../../../src/upstream/errors.js';
import { createUpstreamMonitor } from '../../../src/upstream/monitor.js';

const ORIGIN = 'https://upstream.test';
const COOLDOWN_MS = 50;

function openBreakers() {
  const monitor = createUpstreamMonitor({ metrics: createMetrics(), origin: ORIGIN, solver: { kind: 'none', available: false } });
  return { breakers: createOriginBreakers({ threshold: 1, cooldownMs: COOLDOWN_MS, countsAsFailure: () => true, monitor }), monitor };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('origin breaker', () => {
  it('refuses other requests at once, with Retry-After, while its one probe hangs; the probe closes it', async () => {
    // The breaker reads the clock (Date) for its cooldown: moved by hand, the breaker is open for
    // as long as the test says, however slow the machine.
    vi.useFakeTimers({ toFake: ['Date'] });
    const { breakers, monitor } = openBreakers();
    await expect(breakers.run(ORIGIN, `${ORIGIN}/`, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    vi.advanceTimersByTime(COOLDOWN_MS - 1);
    await expect(breakers.run(ORIGIN, `${ORIGIN}/`, () => Promise.resolve('never called'))).rejects.toBeInstanceOf(
      UpstreamUnavailableError,
    );
    vi.advanceTimersByTime(1);

    let answerProbe!: (page: string) => void;
    const probe = breakers.run(ORIGIN, `${ORIGIN}/probe`, () => new Promise<string>((resolve) => (answerProbe = resolve)));
    expect(monitor.status().breaker.state).toBe('half-open');
    let calledDuringProbe = false;
    const refused = await breakers
      .run(ORIGIN, `${ORIGIN}/other`, async () => {
        calledDuringProbe = true;
        return 'page';
      })
      .catch((error: unknown) => error);
    // Refused while the probe is still pending: no waiting for it.
    expect(refused).toBeInstanceOf(UpstreamUnavailableError);
    expect((refused as UpstreamUnavailableError).retryAfterSeconds).toBe(1);
    expect(calledDuringProbe).toBe(false);

    answerProbe('home');
    await expect(probe).resolves.toBe('home');
    await expect(breakers.run(ORIGIN, `${ORIGIN}/other`, () => Promise.resolve('page'))).resolves.toBe('page');
  });
});

describe('background fetches and the origin breaker', () => {
  const fail = () => Promise.reject(new Error('down'));

  it('never open it by failing on one page, however often; users still get through', async () => {
    const monitor = createUpstreamMonitor({ metrics: createMetrics(), origin: ORIGIN, solver: { kind: 'none', available: false } });
    const breakers = createOriginBreakers({ threshold: 2, siteWidePages: 3, cooldownMs: 60_000, countsAsFailure: () => true, monitor });
    for (let i = 0; i < 10; i++) await expect(breakers.run(ORIGIN, `${ORIGIN}/seri/broken/`, fail, 'background')).rejects.toThrow('down');
    expect(breakers.isOpen(ORIGIN)).toBe(false);
    expect(monitor.status().breaker.state).toBe('closed');
    await expect(breakers.run(ORIGIN, `${ORIGIN}/`, () => Promise.resolve('home'))).resolves.toBe('home');
  });

  it('open it when they fail on several distinct pages in a row, for the cooldown; a success between resets the count', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout'] });
    const monitor = createUpstreamMonitor({ metrics: createMetrics(), origin: ORIGIN, solver: { kind: 'none', available: false } });
    const breakers = createOriginBreakers({
      threshold: 2,
      siteWidePages: 3,
      cooldownMs: COOLDOWN_MS,
      countsAsFailure: () => true,
      monitor,
    });
    await expect(breakers.run(ORIGIN, `${ORIGIN}/a/`, fail, 'background')).rejects.toThrow('down');
    await expect(breakers.run(ORIGIN, `${ORIGIN}/b/`, fail, 'background')).rejects.toThrow('down');
    await expect(breakers.run(ORIGIN, `${ORIGIN}/c/`, () => Promise.resolve('page'), 'background')).resolves.toBe('page');
    await expect(breakers.run(ORIGIN, `${ORIGIN}/d/`, fail, 'background')).rejects.toThrow('down');
    await expect(breakers.run(ORIGIN, `${ORIGIN}/e/`, fail, 'background')).rejects.toThrow('down');
    expect(breakers.isOpen(ORIGIN)).toBe(false);
    await expect(breakers.run(ORIGIN, `${ORIGIN}/f/`, fail, 'background')).rejects.toThrow('down');
    expect(breakers.isOpen(ORIGIN)).toBe(true);
    expect(monitor.status().breaker.state).toBe('open');
    // Users and background alike are refused while it is held open.
    await expect(breakers.run(ORIGIN, `${ORIGIN}/`, () => Promise.resolve('home'))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(breakers.run(ORIGIN, `${ORIGIN}/g/`, () => Promise.resolve('page'), 'background')).rejects.toBeInstanceOf(
      UpstreamUnavailableError,
    );
    vi.advanceTimersByTime(COOLDOWN_MS);
    expect(breakers.isOpen(ORIGIN)).toBe(false);
    await expect(breakers.run(ORIGIN, `${ORIGIN}/`, () => Promise.resolve('home'))).resolves.toBe('home');
  });
});

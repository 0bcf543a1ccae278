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
    await expect(breakers.run(ORIGIN, `${ORIGIN}/`, () => Promise.resolve('never called'))).rejects.toBeInstanceOf(UpstreamUnavailableError);
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

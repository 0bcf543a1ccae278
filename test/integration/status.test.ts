import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { STATUS_REBUILT_AFTER_MS } from '../../src/http/routes/status.js';
import { everyInterval, type ProbeSchedule } from '../../src/status/schedule.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

const T0 = Date.parse('2026-11-20T03:00:00Z');
const MINUTE = 60_000;
const DAY = 86_400_000;

let stacks: TestStack[] = [];
afterEach(async () => {
  await Promise.all(stacks.map((stack) => stack.close()));
  stacks = [];
});

/** The app on a clock the test moves, with the status probe triggered by hand. */
async function statusStack(options: { clock: { now: number }; env?: Record<string, string>; dataDir?: string; probeIntervalMs?: number }) {
  let probe: (() => Promise<unknown>) | undefined;
  let intervalMs: number | undefined;
  const scheduleProbe: ProbeSchedule = (run, interval) => {
    probe = run;
    intervalMs = interval;
    return { stop: () => (probe = undefined) };
  };
  const stack = await startTestStack({
    now: () => options.clock.now,
    scheduleProbe,
    probeIntervalMs: options.probeIntervalMs,
    env: { ...options.env, ...(options.dataDir ? { DATA_DIR: options.dataDir } : {}) },
  });
  stacks.push(stack);
  return {
    stack,
    intervalMs: () => intervalMs,
    probeAt: async (at: number) => {
      options.clock.now = at;
      if (probe === undefined) throw new Error('the probe is not scheduled');
      await probe();
    },
  };
}

const history = async (stack: TestStack) => (await request(stack.app).get('/health/history').expect(200)).body;

describe('the status probe, /health/history and /status', () => {
  it("knows the upstream's state from the start: the first probe runs when the service starts, not an interval later", async () => {
    // The clock moves one build period (STATUS_REBUILT_AFTER_MS) between two looks, so that each look is
    // a new build of /health/history rather than the body built at the first.
    let offsetMs = 0;
    const stack = await startTestStack({ scheduleProbe: everyInterval, probeIntervalMs: 3_600_000, now: () => Date.now() + offsetMs });
    stacks.push(stack);
    let body = await history(stack);
    for (const deadline = Date.now() + 10_000; body.upstream.state === 'unknown' && Date.now() < deadline; body = await history(stack)) {
      await sleep(50);
      offsetMs += STATUS_REBUILT_AFTER_MS;
    }
    expect(body.upstream.state).toBe('up');
    expect(body.upstream.lastProbe.outcome).toBe('up');
    expect(body.probeIntervalSeconds).toBe(3600);
    expect(stack.simulator.hits.map((hit) => hit.path)).toEqual(['/']);
    const page = await request(stack.app).get('/status').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('<p class="status-card__state">Normal</p>');
    expect(page.text).not.toContain('Tidak diketahui');
  });

  it('schedules the probe every probe interval, through the catalog service (the answer warms the cache)', async () => {
    const clock = { now: T0 };
    const { stack, intervalMs, probeAt } = await statusStack({ clock, probeIntervalMs: 120_000 });
    expect(intervalMs()).toBe(120_000);
    await probeAt(T0);
    expect(stack.simulator.hits.map((hit) => hit.path)).toEqual(['/']);
    const home = await request(stack.app).get('/catalog/home');
    expect(home.headers['x-cache']).toBe('HIT');
    expect(stack.simulator.hitCount()).toBe(1);
  });

  it('shows an outage (anti-bot wall) and the recovery, with the cause in plain words', async () => {
    const clock = { now: T0 };
    const { stack, probeAt } = await statusStack({ clock });
    await probeAt(T0);
    await probeAt(T0 + 5 * MINUTE);
    stack.simulator.setFaults([{ kind: 'challenge' }]);
    await probeAt(T0 + 10 * MINUTE);
    await probeAt(T0 + 15 * MINUTE);

    const during = await history(stack);
    expect(during.upstream.state).toBe('down');
    expect(during.upstream.since).toBe('2026-11-20T03:10:00.000Z');
    expect(during.upstream.lastProbe).toMatchObject({
      at: '2026-11-20T03:15:00.000Z',
      outcome: 'down',
      code: 'UPSTREAM_BLOCKED',
      origin: stack.simulator.origin,
    });
    expect(during.incidents).toEqual([
      {
        start: '2026-11-20T03:10:00.000Z',
        end: null,
        durationSeconds: null,
        codes: ['UPSTREAM_BLOCKED'],
        cause: 'situs sumber meminta verifikasi anti-bot',
        failedProbes: 2,
      },
    ]);

    stack.simulator.clearFaults();
    await probeAt(T0 + 20 * MINUTE);
    clock.now = T0 + 21 * MINUTE;
    const after = await history(stack);
    expect(after.generatedAt).toBe('2026-11-20T03:21:00.000Z');
    expect(after.upstream.state).toBe('up');
    expect(after.upstream.since).toBe('2026-11-20T03:20:00.000Z');
    expect(after.upstream.uptime).toEqual({
      '24h': { percent: 60, probes: 5, failed: 2 },
      '7d': { percent: 60, probes: 5, failed: 2 },
      '30d': { percent: 60, probes: 5, failed: 2 },
    });
    expect(after.incidents).toEqual([
      {
        start: '2026-11-20T03:10:00.000Z',
        end: '2026-11-20T03:20:00.000Z',
        durationSeconds: 600,
        codes: ['UPSTREAM_BLOCKED'],
        cause: 'situs sumber meminta verifikasi anti-bot',
        failedProbes: 2,
      },
    ]);
    // The hour of the probes is partial; the 23 hours before it had no probe: unknown, not up.
    expect(after.hours).toHaveLength(24);
    expect(after.hours.at(-1)).toEqual({
      start: '2026-11-20T03:00:00.000Z',
      end: '2026-11-20T04:00:00.000Z',
      state: 'partial',
      probes: 5,
      failed: 2,
    });
    expect(after.hours.slice(0, -1).map((hour: { state: string }) => hour.state)).toEqual(Array(23).fill('unknown'));
    // Days start at midnight WIB (UTC+7): 03:00 UTC is 10:00 WIB on the 20th.
    expect(after.days).toHaveLength(90);
    expect(after.days.at(-1)).toEqual({
      start: '2026-11-19T17:00:00.000Z',
      end: '2026-11-20T17:00:00.000Z',
      state: 'partial',
      probes: 5,
      failed: 2,
    });
    expect(after.days.filter((day: { state: string }) => day.state === 'unknown')).toHaveLength(89);
    expect(after.responseTimes.probes.map((probe: { at: string; outcome: string }) => [probe.at, probe.outcome])).toEqual([
      ['2026-11-20T03:00:00.000Z', 'up'],
      ['2026-11-20T03:05:00.000Z', 'up'],
      ['2026-11-20T03:10:00.000Z', 'down'],
      ['2026-11-20T03:15:00.000Z', 'down'],
      ['2026-11-20T03:20:00.000Z', 'up'],
    ]);

    const page = await request(stack.app).get('/status').set('Accept', 'text/html').expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<p class="status-card__state">Normal</p>');
    expect(page.text).toContain('sejak 20 Nov 2026, 10.20 WIB');
    expect(page.text).toContain('<dd class="uptime__percent">60\u00a0%</dd>');
    expect(page.text).toContain('3 dari 5 pemeriksaan berhasil');
    expect(page.text).toContain(
      '<td data-label="Penyebab">situs sumber meminta verifikasi anti-bot <span class="hint">(<code>UPSTREAM_BLOCKED</code>)</span></td>',
    );
    expect(page.text).toContain('<td data-label="Lama">10 menit</td>');
    expect(page.text).toContain('aria-label="20 Nov 2026, 10.00–11.00 WIB: Sebagian terganggu (3 dari 5 pemeriksaan berhasil)"');
    expect(page.text).toContain(
      'aria-label="19 Nov 2026, 11.00–12.00 WIB: Tidak ada data (tidak ada pemeriksaan: layanan kami mati atau belum berjalan)"',
    );
  });

  it("counts the API's own answers per endpoint of the table and hour: a {slug} path under its template", async () => {
    const clock = { now: T0 };
    const { stack } = await statusStack({ clock });
    expect((await request(stack.app).get('/catalog/genres')).headers['x-cache']).toBe('MISS');
    expect((await request(stack.app).get('/catalog/genres')).headers['x-cache']).toBe('HIT');
    await request(stack.app).get('/catalog/search').expect(400);
    const seasons = [
      await request(stack.app).get('/catalog/seasons/no-such-season'),
      await request(stack.app).get('/catalog/seasons/nor-this-one'),
    ];
    const traffic = (await history(stack)).traffic24h as {
      endpoint: string;
      successes: number;
      errors: object;
      miss: { count: number };
      hit: { count: number };
    }[];
    expect(traffic.find((row) => row.endpoint === '/catalog/genres')).toMatchObject({
      successes: 2,
      errors: {},
      miss: { count: 1 },
      hit: { count: 1 },
    });
    expect(traffic.find((row) => row.endpoint === '/catalog/search')).toMatchObject({ successes: 0, errors: { INVALID_PARAMETER: 1 } });
    expect(seasons.map((answer) => answer.status)).toEqual([404, 404]);
    expect(traffic.find((row) => row.endpoint === '/catalog/seasons/{slug}')).toMatchObject({ successes: 0, errors: { NOT_FOUND: 2 } });
    expect(traffic.filter((row) => row.endpoint.includes('no-such-season'))).toEqual([]);
  });

  it('shows new traffic in the history at its next build, one period (STATUS_REBUILT_AFTER_MS) at most after the last', async () => {
    const clock = { now: T0 };
    const { stack } = await statusStack({ clock });
    const genres = async () =>
      (await history(stack)).traffic24h.find((row: { endpoint: string }) => row.endpoint === '/catalog/genres').successes;
    expect(await genres()).toBe(0);
    await request(stack.app).get('/catalog/genres').expect(200);
    clock.now = T0 + STATUS_REBUILT_AFTER_MS - 1;
    expect(await genres()).toBe(0);
    clock.now = T0 + STATUS_REBUILT_AFTER_MS;
    expect(await genres()).toBe(1);
  });

  it('builds /status and /health/history at most once per 5 s and serves every request in between from that build', async () => {
    const clock = { now: T0 };
    const { stack, probeAt } = await statusStack({ clock });
    await probeAt(T0);
    const pages = await Promise.all(Array.from({ length: 20 }, () => request(stack.app).get('/status').expect(200)));
    const bodies = await Promise.all(Array.from({ length: 20 }, () => request(stack.app).get('/health/history').expect(200)));
    expect(new Set(pages.map((page) => page.text)).size).toBe(1);
    expect(new Set(bodies.map((body) => body.text)).size).toBe(1);
    expect(bodies[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(bodies[0]!.headers['cache-control']).toBe('no-store');
    expect(pages[0]!.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(pages[0]!.text).toContain('Diperbarui 20 Nov 2026, 10.00 WIB');

    // A probe within the period shows on neither; the first request after it builds both anew.
    stack.simulator.setFaults([{ kind: 'challenge' }]);
    await probeAt(T0 + 4_999);
    expect((await history(stack)).upstream.lastProbe).toMatchObject({ at: '2026-11-20T03:00:00.000Z', outcome: 'up' });
    expect((await request(stack.app).get('/status')).text).toBe(pages[0]!.text);
    clock.now = T0 + 5_000;
    expect((await history(stack)).upstream.lastProbe).toMatchObject({ at: '2026-11-20T03:00:04.999Z', outcome: 'down' });
    const rebuilt = await request(stack.app).get('/status').expect(200);
    expect(rebuilt.text).not.toBe(pages[0]!.text);
    expect(rebuilt.text).toContain('situs sumber meminta verifikasi anti-bot');
  });

  it('keeps the history in DATA_DIR across a restart, and bounds it to 90 days', async () => {
    const clock = { now: T0 };
    const first = await statusStack({ clock });
    await first.probeAt(T0);
    await request(first.stack.app).get('/catalog/genres').expect(200);
    await first.stack.close();
    stacks = [];

    clock.now = T0 + 30 * MINUTE;
    const second = await statusStack({ clock, dataDir: first.stack.config.DATA_DIR });
    const restarted = await history(second.stack);
    expect(restarted.upstream.uptime['24h']).toEqual({ percent: 100, probes: 1, failed: 0 });
    expect(restarted.traffic24h.find((row: { endpoint: string }) => row.endpoint === '/catalog/genres')).toMatchObject({ successes: 1 });

    // Past 90 days (and the day of slack that keeps pruning to once a day), the next probe prunes.
    await second.probeAt(T0 + 92 * DAY);
    const later = await history(second.stack);
    expect(later.upstream.uptime['30d']).toEqual({ percent: 100, probes: 1, failed: 0 });
    expect(later.responseTimes.probes).toHaveLength(1);
    const lines = readFileSync(join(first.stack.config.DATA_DIR, 'status-history.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).kind)).toEqual(['probe']);
  });

  it('never counts /status or /health/history against the quota', async () => {
    const clock = { now: T0 };
    const { stack } = await statusStack({ clock, env: { RATE_LIMIT_MAX: '2' } });
    for (let i = 0; i < 3; i++) {
      const page = await request(stack.app).get('/status').expect(200);
      expect(page.headers['x-ratelimit-remaining']).toBeUndefined();
      await request(stack.app).get('/health/history').expect(200);
    }
    const catalog = await request(stack.app).get('/catalog/genres').expect(200);
    expect(catalog.headers['x-ratelimit-remaining']).toBe('1');
  });
});

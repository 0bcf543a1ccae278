import { describe, expect, it } from 'vitest';
import type { ProbeRecord } from '../../../src/status/records.js';
import { currentState, incidents, slots, uptime } from '../../../src/status/uptime.js';

const T0 = Date.parse('2026-11-20T00:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const probe = (
  minutes: number,
  outcome: 'up' | 'down',
  code: string | null = outcome === 'down' ? 'UPSTREAM_TIMEOUT' : null,
): ProbeRecord => ({
  kind: 'probe',
  at: T0 + minutes * MINUTE,
  outcome,
  code,
  durationMs: 300,
  origin: 'https://anichin.cafe',
});

describe('uptime', () => {
  it('is the share of working probes, in %', () => {
    const probes = [probe(0, 'up'), probe(5, 'up'), probe(10, 'down'), probe(15, 'up')];
    expect(uptime(probes, T0, T0 + HOUR)).toEqual({ percent: 75, probes: 4, failed: 1 });
  });

  it('leaves hours without any probe out: a 2-hour gap neither raises nor lowers it', () => {
    // One probe before the gap, one after: the service was down in between, so nobody knows.
    const probes = [probe(0, 'up'), probe(3 * 60, 'down')];
    expect(uptime(probes, T0, T0 + 4 * HOUR)).toEqual({ percent: 50, probes: 2, failed: 1 });
  });

  it('is unknown (null), not 100 %, over a window without probes', () => {
    expect(uptime([probe(0, 'up')], T0 + HOUR, T0 + 2 * HOUR)).toEqual({ percent: null, probes: 0, failed: 0 });
  });

  it('counts probes in [from, to): one at `to` belongs to the next window', () => {
    expect(uptime([probe(0, 'up'), probe(60, 'down')], T0, T0 + HOUR)).toEqual({ percent: 100, probes: 1, failed: 0 });
  });
});

describe('slots', () => {
  it('says up, partial, down, or unknown for an hour without probes', () => {
    const probes = [probe(0, 'up'), probe(30, 'up'), probe(60, 'up'), probe(90, 'down'), probe(120, 'down'), probe(150, 'down')];
    const hours = slots(probes, [T0, T0 + HOUR, T0 + 2 * HOUR, T0 + 3 * HOUR, T0 + 4 * HOUR]);
    expect(hours.map(({ state, probes: count, failed }) => [state, count, failed])).toEqual([
      ['up', 2, 0],
      ['partial', 2, 1],
      ['down', 2, 2],
      ['unknown', 0, 0],
    ]);
    expect(hours[3]).toEqual({ start: T0 + 3 * HOUR, end: T0 + 4 * HOUR, state: 'unknown', probes: 0, failed: 0 });
  });
});

describe('currentState', () => {
  it('is the last outcome since the first probe of its run', () => {
    const probes = [probe(0, 'down'), probe(5, 'up'), probe(10, 'up'), probe(15, 'up')];
    expect(currentState(probes, T0 + 16 * MINUTE, 12 * MINUTE)).toEqual({ state: 'up', since: T0 + 5 * MINUTE });
  });

  it('is down since the first failed probe of an outage that lasts', () => {
    const probes = [probe(0, 'up'), probe(5, 'down'), probe(10, 'down')];
    expect(currentState(probes, T0 + 11 * MINUTE, 12 * MINUTE)).toEqual({ state: 'down', since: T0 + 5 * MINUTE });
  });

  it('is unknown without probes, or when the last one is too old (the service was not probing)', () => {
    expect(currentState([], T0, 12 * MINUTE)).toEqual({ state: 'unknown', since: null });
    expect(currentState([probe(0, 'up')], T0 + 13 * MINUTE, 12 * MINUTE)).toEqual({ state: 'unknown', since: null });
  });
});

describe('incidents', () => {
  it('are runs of failed probes, ended by the next working probe, with their codes by frequency', () => {
    const probes = [
      probe(0, 'up'),
      probe(5, 'down', 'UPSTREAM_TIMEOUT'),
      probe(10, 'down', 'UPSTREAM_BLOCKED'),
      probe(15, 'down', 'UPSTREAM_BLOCKED'),
      probe(20, 'up'),
      probe(25, 'down', 'UPSTREAM_ERROR'),
    ];
    expect(incidents(probes)).toEqual([
      { start: T0 + 5 * MINUTE, end: T0 + 20 * MINUTE, codes: ['UPSTREAM_BLOCKED', 'UPSTREAM_TIMEOUT'], failedProbes: 3 },
      { start: T0 + 25 * MINUTE, end: null, codes: ['UPSTREAM_ERROR'], failedProbes: 1 },
    ]);
  });

  it('are none while every probe works', () => {
    expect(incidents([probe(0, 'up'), probe(5, 'up')])).toEqual([]);
  });
});

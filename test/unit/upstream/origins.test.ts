import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createOriginPool } from '../../../src/upstream/origins.js';
import type { UpstreamMonitor } from '../../../src/upstream/monitor.js';

/** A pool of two origins whose log lines the test reads back. */
function poolWithLog() {
  const lines: { msg: string; origin?: string; reason?: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const pool = createOriginPool({
    configured: ['https://a.example', 'https://b.example'],
    store: { read: () => null, write: async () => {} },
    recheckMs: 60_000,
    monitor: { originsChanged: () => {} } as unknown as UpstreamMonitor,
    logger: pino({ level: 'warn' }, sink),
  });
  return { pool, setAsideLines: () => lines.filter((line) => line.msg === 'upstream origin set aside') };
}

describe('origin pool', () => {
  it('logs an origin set aside once per change of its state, not once per request that finds it still down', async () => {
    const { pool, setAsideLines } = poolWithLog();
    for (let request = 0; request < 50; request++) pool.setAside('https://b.example', 'UPSTREAM_UNAVAILABLE');
    pool.setAside('https://b.example', 'UPSTREAM_BLOCKED');
    await new Promise((resolve) => setImmediate(resolve));
    expect(setAsideLines().map((line) => [line.origin, line.reason])).toEqual([
      ['https://b.example', 'UPSTREAM_UNAVAILABLE'],
      ['https://b.example', 'UPSTREAM_BLOCKED'],
    ]);
    expect(pool.list()).toEqual([
      { origin: 'https://a.example', setAside: null },
      { origin: 'https://b.example', setAside: 'UPSTREAM_BLOCKED' },
    ]);
  });
});

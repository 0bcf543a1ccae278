import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../bench/processes.js';
import { startTestStack } from '../helpers/testApp.js';
import { SERIES } from '../simulator/dataset.js';
import { startSimulator, type Simulator } from '../simulator/server.js';

// kill -9 of an instance while it keeps answers: after a restart on the same DATA_DIR, no answer is
// served torn or half-written, and every answer a client got before the kill is served again.

const DAY_MS = 86_400_000;
// Series pages, large and small, fetched 8 at a time.
const PATHS = SERIES.slice(0, 32).map((series) => `/catalog/series/${series.slug}`);
const IN_FLIGHT = 8;
const KILL_AFTER_ANSWERS = 12;

let site: Simulator;
beforeAll(async () => {
  site = await startSimulator();
});
afterAll(() => site.close());

describe('kept answers through kill -9', () => {
  it('serves nothing torn after a restart, and every answer given before the kill', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'last-good-crash-'));
    const child = await startService({ DATA_DIR: dataDir, UPSTREAM_BASE_URLS: site.origin, RATE_LIMIT_MAX: '100000' });
    const answered = new Map<string, unknown>();
    let killed = false;
    const queue = [...PATHS];
    const worker = async () => {
      for (let path = queue.shift(); path !== undefined && !killed; path = queue.shift()) {
        try {
          const response = await fetch(`${child.origin}${path}`);
          const body = (await response.json()) as { data: unknown };
          if (response.status === 200 && !killed) answered.set(path, body.data);
        } catch {
          // The connection the kill cut.
        }
        if (!killed && answered.size >= KILL_AFTER_ANSWERS) {
          killed = true;
          process.kill(child.pid, 'SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    expect(killed).toBe(true);
    await child.stop();

    // The file is a whole database: SQLite rolled back whatever the kill cut off.
    const db = new Database(join(dataDir, 'answers.sqlite'));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();

    const clock = { now: () => Date.now() + 2 * DAY_MS };
    const restarted = await startTestStack({ sharedSimulator: site, env: { DATA_DIR: dataDir }, now: clock.now });
    const reference = await startTestStack({ sharedSimulator: site });
    try {
      site.setSiteDown('unavailable');
      const served = await Promise.all(PATHS.map((path) => request(restarted.app).get(path)));
      site.setSiteDown(null);
      const references = await Promise.all(
        PATHS.map(async (path, index) => (served[index]!.status === 200 ? await request(reference.app).get(path) : undefined)),
      );
      let kept = 0;
      for (const [index, path] of PATHS.entries()) {
        const answer = served[index]!;
        if (answered.has(path)) {
          expect(answer.status, path).toBe(200);
          expect(answer.body.data, path).toEqual(answered.get(path));
        }
        if (answer.status === 200) {
          kept++;
          expect(answer.headers['x-cache'], path).toBe('STALE');
          expect(answer.body.data, path).toEqual(references[index]!.body.data);
        } else {
          expect(['UPSTREAM_ERROR', 'UPSTREAM_UNAVAILABLE'], path).toContain(answer.body.error.code);
        }
      }
      expect(kept).toBeGreaterThanOrEqual(KILL_AFTER_ANSWERS);
    } finally {
      await Promise.all([restarted.close(), reference.close()]);
    }
    // A child's start, and the pages parsed twice: a minute on a loaded machine.
  }, 120_000);
});

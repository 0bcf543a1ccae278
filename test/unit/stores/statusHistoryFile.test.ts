import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileStatusStore } from '../../../src/stores/statusHistory/file.js';
import type { ProbeRecord, TrafficRecord } from '../../../src/status/records.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-20T00:00:00Z');

const probe = (at: number, outcome: 'up' | 'down' = 'up'): ProbeRecord => ({
  kind: 'probe',
  at,
  outcome,
  code: outcome === 'down' ? 'UPSTREAM_BLOCKED' : null,
  durationMs: 412,
  origin: 'https://anichin.cafe',
});
const traffic = (hour: number): TrafficRecord => ({
  kind: 'traffic',
  hour,
  endpoint: '/catalog/home',
  successes: 2,
  errors: {},
  miss: { '40': 1 },
  hit: { '4': 1 },
});

function storeInTempDir() {
  const file = join(mkdtempSync(join(tmpdir(), 'status-store-')), 'status-history.jsonl');
  const warnings: object[] = [];
  return { file, warnings, store: createFileStatusStore(file, { warn: (fields) => warnings.push(fields) }) };
}

describe('the file status store', () => {
  it('reads nothing from a file that does not exist yet', async () => {
    const { store } = storeInTempDir();
    expect(await store.read(null)).toEqual({ records: [], cursor: '0' });
  });

  it('appends JSON lines and reads back only what came after a cursor', async () => {
    const { file, store } = storeInTempDir();
    await store.append([probe(T0), traffic(T0)]);
    const first = await store.read(null);
    expect(first.records).toEqual([probe(T0), traffic(T0)]);
    await store.append([probe(T0 + 300_000, 'down')]);
    const next = await store.read(first.cursor);
    expect(next.records).toEqual([probe(T0 + 300_000, 'down')]);
    expect(await store.read(next.cursor)).toEqual({ records: [], cursor: next.cursor });
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(4);
  });

  it('skips a torn last line with a warning, and the next append starts a line of its own', async () => {
    const { file, warnings, store } = storeInTempDir();
    writeFileSync(file, `${JSON.stringify(probe(T0))}\n`);
    // A crash in the middle of a write.
    appendFileSync(file, JSON.stringify(probe(T0 + 300_000)).slice(0, 30));
    expect((await store.read(null)).records).toEqual([probe(T0)]);
    expect(warnings).toEqual([{ file }]);

    const fresh = createFileStatusStore(file, { warn: (fields) => warnings.push(fields) });
    await fresh.append([probe(T0 + 600_000)]);
    expect((await fresh.read(null)).records).toEqual([probe(T0), probe(T0 + 600_000)]);
    expect(warnings).toHaveLength(2);
  });

  it('prunes what is older than the bound, whatever its kind, and keeps the rest in order', async () => {
    const { store } = storeInTempDir();
    const now = T0 + 100 * DAY;
    const keepFrom = now - 90 * DAY;
    await store.append([probe(keepFrom - 1), traffic(keepFrom - 3_600_000), probe(keepFrom), traffic(keepFrom + 3_600_000), probe(now)]);
    await store.prune(keepFrom);
    expect((await store.read(null)).records).toEqual([probe(keepFrom), traffic(keepFrom + 3_600_000), probe(now)]);
    await store.append([probe(now + 1)]);
    expect((await store.read(null)).records.at(-1)).toEqual(probe(now + 1));
  });
});

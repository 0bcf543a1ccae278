import { describe, expect, it } from 'vitest';
import type { CatalogAnswer } from '../../../src/catalog/answer.js';
import { AnswerCache, ENTRY_OVERHEAD_BYTES } from '../../../src/catalog/cache.js';

const T0 = Date.parse('2026-11-21T10:00:00Z');

function setup(options: { maxBytes?: number; staleMaxMs?: number } = {}) {
  const clock = { now: T0 };
  const cache = new AnswerCache({
    maxBytes: options.maxBytes ?? 1_000_000,
    staleMaxMs: options.staleMaxMs ?? 60_000,
    now: () => clock.now,
  });
  return { clock, cache };
}

const answer = (text: string, fetchedAt = T0, ttlSeconds = 10): CatalogAnswer => ({
  body: Buffer.from(text),
  etag: `W/"${text.slice(0, 8)}"`,
  fetchedAt,
  ttlSeconds,
});

/** A loader that counts its calls and resolves when told to. */
function deferredLoader(result: () => CatalogAnswer) {
  const calls: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const loader = () =>
    new Promise<CatalogAnswer>((resolve, reject) => {
      calls.push({ resolve: () => resolve(result()), reject });
    });
  return { loader, calls };
}

describe('AnswerCache', () => {
  it('serves an answer as fresh until its TTL, then as stale until the stale window ends', async () => {
    const { clock, cache } = setup({ staleMaxMs: 60_000 });
    await cache.load('k', async () => answer('one'));
    expect(cache.lookup('k')?.freshness).toBe('fresh');
    clock.now = T0 + 9_999;
    expect(cache.lookup('k')?.freshness).toBe('fresh');
    clock.now = T0 + 10_000;
    expect(cache.lookup('k')?.freshness).toBe('stale');
    clock.now = T0 + 69_999;
    expect(cache.lookup('k')).toMatchObject({ freshness: 'stale', answer: { etag: 'W/"one"' } });
    clock.now = T0 + 70_000;
    expect(cache.lookup('k')).toBeUndefined();
  });

  it('shares one load between concurrent misses of a key (single-flight)', async () => {
    const { cache } = setup();
    const { loader, calls } = deferredLoader(() => answer('one'));
    const waiting = Array.from({ length: 100 }, () => cache.load('k', loader));
    expect(calls).toHaveLength(1);
    calls[0]!.resolve();
    const answers = await Promise.all(waiting);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]!.body.toString()).toBe('one');
  });

  it('shares a failed load and stores nothing', async () => {
    const { cache } = setup();
    const { loader, calls } = deferredLoader(() => answer('never'));
    const waiting = [cache.load('k', loader), cache.load('k', loader)];
    calls[0]!.reject(new Error('upstream down'));
    for (const result of await Promise.allSettled(waiting)) {
      expect(result).toMatchObject({ status: 'rejected', reason: { message: 'upstream down' } });
    }
    expect(cache.lookup('k')).toBeUndefined();
    expect(cache.size.entries).toBe(0);
  });

  it('keeps serving the stale answer during a refresh, runs one refresh, then serves the new answer', async () => {
    const { clock, cache } = setup();
    await cache.load('k', async () => answer('old'));
    clock.now = T0 + 20_000;
    const { loader, calls } = deferredLoader(() => answer('new', clock.now));
    cache.refresh('k', loader);
    cache.refresh('k', loader);
    expect(calls).toHaveLength(1);
    expect(cache.lookup('k')).toMatchObject({ freshness: 'stale', answer: { etag: 'W/"old"' } });
    // A load while the refresh runs joins it instead of starting another.
    const joined = cache.load('k', loader);
    expect(calls).toHaveLength(1);
    calls[0]!.resolve();
    expect((await joined).etag).toBe('W/"new"');
    expect(cache.lookup('k')).toMatchObject({ freshness: 'fresh', answer: { etag: 'W/"new"' } });
  });

  it('keeps the stale answer when its refresh fails (stale-if-error)', async () => {
    const { clock, cache } = setup();
    await cache.load('k', async () => answer('old'));
    clock.now = T0 + 20_000;
    const { loader, calls } = deferredLoader(() => answer('new'));
    cache.refresh('k', loader);
    calls[0]!.reject(new Error('upstream down'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(cache.lookup('k')).toMatchObject({ freshness: 'stale', answer: { etag: 'W/"old"' } });
    // The next stale lookup may try again.
    cache.refresh('k', loader);
    expect(calls).toHaveLength(2);
  });

  it('never replaces a good answer with a failed load', async () => {
    const { clock, cache } = setup({ staleMaxMs: 0 });
    await cache.load('k', async () => answer('good'));
    clock.now = T0 + 10_000;
    await expect(cache.load('k', async () => Promise.reject(new Error('layout changed')))).rejects.toThrow('layout changed');
    clock.now = T0;
    expect(cache.lookup('k')?.answer.etag).toBe('W/"good"');
  });

  it('counts an entry as its body, etag and key plus the measured cost of holding one', async () => {
    const { cache } = setup();
    await cache.load('key', async () => answer('x'.repeat(280)));
    // 280 body bytes + 12-byte etag (W/"xxxxxxxx") + 3-byte key + 1,200 B of objects, native bookkeeping and heap room.
    expect(cache.size).toEqual({ entries: 1, bytes: 1_495 });
  });

  it('is bounded by bytes and evicts the least recently used answers first', async () => {
    // Each entry: 1,000 body bytes + 12-byte etag + 1-byte key + the overhead; room for three, not four.
    const entryBytes = 1_000 + 12 + 1 + ENTRY_OVERHEAD_BYTES;
    const { cache } = setup({ maxBytes: 4 * entryBytes - 1 });
    for (const key of ['a', 'b', 'c']) await cache.load(key, async () => answer(key.repeat(1000)));
    expect(cache.size).toEqual({ entries: 3, bytes: 3 * entryBytes });
    cache.lookup('a');
    await cache.load('d', async () => answer('d'.repeat(1000)));
    expect(cache.size).toEqual({ entries: 3, bytes: 3 * entryBytes });
    expect(cache.lookup('b')).toBeUndefined();
    expect(cache.lookup('a')?.answer.body.length).toBe(1000);
    expect(cache.lookup('d')?.answer.body.length).toBe(1000);
  });

  it('does not store an answer larger than the whole bound', async () => {
    const { cache } = setup({ maxBytes: 500 });
    const big = await cache.load('big', async () => answer('x'.repeat(1000)));
    expect(big.body.length).toBe(1000);
    expect(cache.lookup('big')).toBeUndefined();
  });
});

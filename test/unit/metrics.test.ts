import { describe, expect, it } from 'vitest';
import { AnswerCache } from '../../src/catalog/cache.js';
import { createMetrics, registerAnswerCacheMetrics } from '../../src/metrics.js';

describe('the answer cache in /metrics', () => {
  it('reports the entries and the bytes the bound counts, as they are when scraped', async () => {
    const metrics = createMetrics();
    const cache = new AnswerCache({ maxBytes: 1_000_000, staleMaxMs: 60_000 });
    registerAnswerCacheMetrics(metrics.registry, () => cache.size);
    expect(await metrics.registry.metrics()).toContain('answer_cache_entries 0\n');

    for (const key of ['a', 'b'])
      await cache.load(key, async () => ({ body: Buffer.from(key.repeat(100)), etag: `W/"${key}"`, fetchedAt: 0, ttlSeconds: 10 }));
    const scrape = await metrics.registry.metrics();
    expect(scrape).toContain('answer_cache_entries 2\n');
    expect(cache.size.bytes).toBeGreaterThan(200);
    expect(scrape).toContain(`answer_cache_bytes ${cache.size.bytes}\n`);
  });
});

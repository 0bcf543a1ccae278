import { RemovedSeries, type CatalogEntry } from '../../contract/catalogExport.js';
import { CrawlProgress, NO_PROGRESS, type CatalogSnapshot, type CatalogStore } from '../../crawler/catalogStore.js';
import type { RedisConnection } from '../../redis/connection.js';

// The local catalog in Redis, shared by every instance: a hash of entries (slug → JSON), a hash of
// the series gone, the crawl's progress, and a revision that every change moves on in the same
// transaction. A snapshot reads all of it in one MULTI, so every instance that reads the same
// revision builds the same export, byte for byte. Entries come back as Buffers, off the heap.

const ENTRIES = 'catalog:entries';
const REMOVED = 'catalog:removed';
const PROGRESS = 'catalog:progress';
const REVISION = 'catalog:revision';

/** Each reply of a MULTI: its error or its value. */
function values(replies: [Error | null, unknown][] | null): unknown[] {
  if (replies === null) throw new Error('the Redis transaction was aborted');
  return replies.map(([error, value]) => {
    if (error !== null) throw error;
    return value;
  });
}

export function createRedisCatalogStore(redis: RedisConnection): CatalogStore {
  const { client } = redis;
  return {
    async snapshot(): Promise<CatalogSnapshot> {
      const [revision, entries, removed, progress] = values(
        await client.multi().get(REVISION).hgetallBuffer(ENTRIES).hvals(REMOVED).get(PROGRESS).exec(),
      ) as [string | null, Record<string, Buffer>, string[], string | null];
      const parsedProgress = progress === null ? undefined : CrawlProgress.safeParse(JSON.parse(progress));
      return {
        revision: Number(revision ?? '0'),
        entries: new Map(Object.entries(entries)),
        removed: removed.map((text) => RemovedSeries.parse(JSON.parse(text))),
        progress: parsedProgress?.success ? parsedProgress.data : NO_PROGRESS,
      };
    },
    revision: async () => Number((await client.get(REVISION)) ?? '0'),
    async put(entry: CatalogEntry) {
      values(await client.multi().hset(ENTRIES, entry.slug, JSON.stringify(entry)).hdel(REMOVED, entry.slug).incr(REVISION).exec());
    },
    async remove(entry: RemovedSeries) {
      values(await client.multi().hdel(ENTRIES, entry.slug).hset(REMOVED, entry.slug, JSON.stringify(entry)).incr(REVISION).exec());
    },
    async saveProgress(progress) {
      await client.set(PROGRESS, JSON.stringify(progress));
    },
    close: async () => undefined,
  };
}

import type { CatalogEntry, RemovedSeries } from '../../contract/catalogExport.js';
import { CrawlProgress, NO_PROGRESS, type CatalogChanges, type CatalogStore } from '../../crawler/catalogStore.js';
import type { RedisConnection } from '../../redis/connection.js';

// The local catalog in Redis, shared by every instance: a hash of entries (slug → JSON), a hash of
// the series gone, the crawl's progress, a revision that every change moves on, and a sorted set
// of the slugs by the revision that last changed them, all written by one script each. Another
// instance reads the changes after its revision in one script too, so every instance that reaches
// the same revision builds the same export, byte for byte. Entries come back as Buffers, off the heap.

const ENTRIES = 'catalog:entries';
const REMOVED = 'catalog:removed';
const PROGRESS = 'catalog:progress';
const REVISION = 'catalog:revision';
const CHANGED = 'catalog:changed';
const KEYS = [REVISION, ENTRIES, REMOVED, CHANGED] as const;

// ARGV: slug, JSON of the entry.
const PUT = `
local revision = redis.call('INCR', KEYS[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[4], revision, ARGV[1])
return revision`;
// ARGV: slug, JSON of the removed series.
const REMOVE = `
local revision = redis.call('INCR', KEYS[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[4], revision, ARGV[1])
return revision`;
// ARGV: the revision the reader has. Replies the revision, then 'e' or 'r', slug, JSON per change.
const CHANGES_SINCE = `
local reply = { redis.call('GET', KEYS[1]) or '0' }
for _, slug in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '(' .. ARGV[1], '+inf')) do
  local entry = redis.call('HGET', KEYS[2], slug)
  if entry then
    table.insert(reply, 'e'); table.insert(reply, slug); table.insert(reply, entry)
  else
    local gone = redis.call('HGET', KEYS[3], slug)
    if gone then table.insert(reply, 'r'); table.insert(reply, slug); table.insert(reply, gone) end
  end
end
return reply`;

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

  /** Everything, in one MULTI: the first read, which also covers entries written before the sorted set of changes existed. */
  async function everything(): Promise<CatalogChanges> {
    const [revision, entries, removed] = values(await client.multi().get(REVISION).hgetallBuffer(ENTRIES).hgetall(REMOVED).exec()) as [
      string | null,
      Record<string, Buffer>,
      Record<string, string>,
    ];
    return { revision: Number(revision ?? '0'), entries: new Map(Object.entries(entries)), removed: new Map(Object.entries(removed)) };
  }

  return {
    async changesSince(since) {
      if (since < 0) return everything();
      const [revision, ...changes] = (await client.callBuffer('EVAL', CHANGES_SINCE, KEYS.length, ...KEYS, since)) as Buffer[];
      const result: CatalogChanges = { revision: Number(revision!.toString()), entries: new Map(), removed: new Map() };
      for (let i = 0; i < changes.length; i += 3) {
        const [kind, slug, body] = [changes[i]!.toString(), changes[i + 1]!.toString(), changes[i + 2]!];
        if (kind === 'e') result.entries.set(slug, body);
        else result.removed.set(slug, body.toString('utf8'));
      }
      return result;
    },
    revision: async () => Number((await client.get(REVISION)) ?? '0'),
    async progress() {
      const text = await client.get(PROGRESS);
      const parsed = text === null ? undefined : CrawlProgress.safeParse(JSON.parse(text));
      return parsed?.success ? parsed.data : NO_PROGRESS;
    },
    async put(entry: CatalogEntry) {
      await client.eval(PUT, KEYS.length, ...KEYS, entry.slug, JSON.stringify(entry));
    },
    async remove(entry: RemovedSeries) {
      await client.eval(REMOVE, KEYS.length, ...KEYS, entry.slug, JSON.stringify(entry));
    },
    async saveProgress(progress) {
      await client.set(PROGRESS, JSON.stringify(progress));
    },
    close: async () => undefined,
  };
}

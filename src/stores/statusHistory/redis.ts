import type { RedisConnection } from '../../redis/connection.js';
import { execAll, parseJsonReply } from '../../redis/replies.js';
import { settled } from '../../redis/settled.js';
import { recordTime, StatusRecord } from '../../status/records.js';
import type { StatusHistoryStore, StatusStoreLog } from '../../status/historyStore.js';

const KEY = 'status:history';
const FIELD = 'record';
const DELETE_BATCH = 1000;
/** Longer than one connection attempt (1 s): the history read at start waits for the first one to end. */
const CONNECT_WAIT_MS = 2_000;

/**
 * The status history in one Redis stream, shared by every instance: an append-only log whose
 * entries are read in order. The cursor is the last id read, so each read takes only what was appended since.
 */
export function createRedisStatusStore(redis: RedisConnection, logger: StatusStoreLog): StatusHistoryStore {
  /** The entries after `cursor`: the readable records, and the ids of those older than `keepFrom` or unreadable. */
  async function entries(cursor: string | null, keepFrom = Number.NEGATIVE_INFINITY) {
    await settled(redis, CONNECT_WAIT_MS);
    // "(" makes the start exclusive: only entries after the cursor.
    const found = await redis.client.xrange(KEY, cursor === null ? '-' : `(${cursor}`, '+');
    const records: StatusRecord[] = [];
    const stale: string[] = [];
    for (const [id, fields] of found) {
      const parsed = StatusRecord.safeParse(parseJsonReply(fields[fields.indexOf(FIELD) + 1]));
      if (!parsed.success) {
        logger.warn({ key: KEY, id }, 'skipping an unreadable status history entry');
        stale.push(id);
      } else if (recordTime(parsed.data) < keepFrom) stale.push(id);
      else records.push(parsed.data);
    }
    return { records, stale, last: found.at(-1)?.[0] };
  }

  async function read(cursor: string | null) {
    const { records, last } = await entries(cursor);
    return { records, cursor: last ?? cursor ?? '0-0' };
  }

  async function append(records: readonly StatusRecord[]) {
    if (records.length === 0) return;
    await settled(redis, CONNECT_WAIT_MS);
    const batch = redis.client.multi();
    for (const record of records) batch.xadd(KEY, '*', FIELD, JSON.stringify(record));
    await execAll(batch);
  }

  // By the records' own times, as the file store does: entry ids are append times, which for an
  // hour's traffic come later than the hour.
  async function prune(keepFrom: number) {
    const { stale } = await entries(null, keepFrom);
    for (let start = 0; start < stale.length; start += DELETE_BATCH)
      await redis.client.xdel(KEY, ...stale.slice(start, start + DELETE_BATCH));
  }

  return { read, append, prune };
}

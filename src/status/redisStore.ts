import type { RedisConnection } from '../redis/connection.js';
import { DAY_MS, HISTORY_DAYS, StatusRecord } from './records.js';
import type { StatusHistoryStore, StatusStoreLog } from './store.js';

const KEY = 'status:history';
const FIELD = 'record';

/**
 * The status history in one Redis stream, shared by every instance: an append-only log whose
 * entry ids are the append times, so the cursor is the last id read and the 90-day bound is a
 * MINID trim, both native to streams.
 */
export function createRedisStatusStore(redis: RedisConnection, logger: StatusStoreLog, now: () => number): StatusHistoryStore {
  async function read(cursor: string | null) {
    // "(" makes the start exclusive: only entries after the cursor.
    const entries = await redis.client.xrange(KEY, cursor === null ? '-' : `(${cursor}`, '+');
    const records: StatusRecord[] = [];
    for (const [id, fields] of entries) {
      const parsed = StatusRecord.safeParse(parseJson(fields[fields.indexOf(FIELD) + 1]));
      if (parsed.success) records.push(parsed.data);
      else logger.warn({ key: KEY, id }, 'skipping an unreadable status history entry');
    }
    return { records, cursor: entries.at(-1)?.[0] ?? cursor ?? '0-0' };
  }

  async function append(records: readonly StatusRecord[]) {
    if (records.length === 0) return;
    const keepFrom = String(now() - HISTORY_DAYS * DAY_MS);
    const batch = redis.client.multi();
    // "~": Redis trims whole macro-nodes, cheaply; prune() trims exactly.
    for (const record of records) batch.xadd(KEY, 'MINID', '~', keepFrom, '*', FIELD, JSON.stringify(record));
    const results = await batch.exec();
    const failed = results?.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
  }

  async function prune(keepFrom: number) {
    await redis.client.xtrim(KEY, 'MINID', String(keepFrom));
  }

  return { read, append, prune };
}

function parseJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}

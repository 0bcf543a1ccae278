import type { RedisConnection } from '../../redis/connection.js';
import { execAll, parseJsonReply } from '../../redis/replies.js';
import { parseSalt } from '../../reports/ipHash.js';
import { StoredReport } from '../../reports/schema.js';
import type { FileReports } from './file.js';
import type { ReportsLog, SharedReports } from '../../reports/store.js';

// With REDIS_URL, every instance's reports in one Redis hash (id -> the report's JSON line), so
// that any instance confirms and lists a report another took. Redis is a view, not the record:
// each instance appends to its own DATA_DIR file first (that is what a report's acknowledgement
// waits for), and re-adds its whole file whenever its connection comes (back) up, idempotently
// (HSETNX), so a Redis that lost its data heals from the files of the instances that run.

const REPORTS_KEY = 'reports';
const SALT_KEY = 'reports:ip-hash-salt';
/** Reports re-added per round trip while healing. */
const HEAL_BATCH = 500;
/** Fields read per HSCAN call while listing. */
const SCAN_COUNT = 1_000;

class HealingStopped extends Error {}

/** Also stops healing, before the connection closes. */
export interface RedisReports extends SharedReports {
  close(): Promise<void>;
}

/** Redis down or failing: this instance's own reports, as the file implementation gives them. */
export function createRedisReports(redis: RedisConnection, local: FileReports, logger: ReportsLog): RedisReports {
  let sharedSalt: Buffer | undefined;
  let healing: Promise<void> | undefined;
  let healAgain = false;
  let closed = false;

  /** The service's salt: the first instance's own wins (SET NX), and every instance keeps a copy in its DATA_DIR. */
  async function syncSalt(): Promise<Buffer> {
    const own = await local.ipHashSalt();
    await redis.client.set(SALT_KEY, own.toString('hex'), 'NX');
    const shared = parseSalt((await redis.client.get(SALT_KEY)) ?? '', `Redis key ${SALT_KEY}`);
    // The copy lets the salt outlive a Redis that loses its data: this instance puts it back.
    await local.adoptIpHashSalt(shared);
    sharedSalt = shared;
    return shared;
  }

  async function heal(): Promise<void> {
    await syncSalt();
    let batch = redis.client.pipeline();
    let queued = 0;
    let added = 0;
    const flush = async () => {
      added += (await execAll(batch)).reduce((sum: number, result) => sum + Number(result), 0);
      batch = redis.client.pipeline();
      queued = 0;
    };
    await local.forEach(async (report) => {
      if (closed) throw new HealingStopped();
      batch.hsetnx(REPORTS_KEY, report.id, JSON.stringify(report));
      if (++queued >= HEAL_BATCH) await flush();
    });
    if (queued > 0 && !closed) await flush();
    if (added > 0) logger.info({ added }, "reports of this instance's file added to the shared view");
  }

  function healWhileUp(): void {
    if (closed) return;
    if (healing !== undefined) {
      healAgain = true;
      return;
    }
    healing = heal()
      .catch((error: unknown) => {
        if (closed) return;
        redis.fellBack('reports', error);
        logger.warn({ err: error }, 'could not add this instance’s reports to the shared view; retried when Redis is next up');
      })
      .finally(() => {
        healing = undefined;
        if (healAgain && redis.isUp()) {
          healAgain = false;
          healWhileUp();
        }
      });
  }

  redis.onStateChange((state) => {
    if (state === 'up') healWhileUp();
  });
  if (redis.isUp()) healWhileUp();

  async function add(report: StoredReport): Promise<void> {
    await local.add(report);
    if (!redis.isUp()) return;
    // Awaited, so that the confirmation the sender is sent to next is found on every instance.
    await redis.client.hsetnx(REPORTS_KEY, report.id, JSON.stringify(report)).catch((error: unknown) => redis.fellBack('reports', error));
  }

  async function has(id: string): Promise<boolean> {
    if (await local.has(id)) return true;
    if (!redis.isUp()) return false;
    try {
      return (await redis.client.hexists(REPORTS_KEY, id)) === 1;
    } catch (error) {
      redis.fellBack('reports', error);
      return false;
    }
  }

  async function list() {
    const own = await local.list();
    if (!redis.isUp()) return own;
    const byId = new Map(own.reports.map((report) => [report.id, report]));
    try {
      let cursor = '0';
      do {
        const [next, fields] = await redis.client.hscan(REPORTS_KEY, cursor, 'COUNT', SCAN_COUNT);
        cursor = next;
        for (let index = 0; index < fields.length; index += 2) {
          const id = fields[index] as string;
          if (byId.has(id)) continue;
          const report = StoredReport.safeParse(parseJsonReply(fields[index + 1]));
          if (report.success) byId.set(id, report.data);
          else logger.warn({ key: REPORTS_KEY, id }, 'skipping an unreadable report in the shared view');
        }
      } while (cursor !== '0');
    } catch (error) {
      redis.fellBack('reports', error);
      return own;
    }
    return { reports: [...byId.values()], skippedLines: own.skippedLines };
  }

  async function ipHashSalt(): Promise<Buffer> {
    if (sharedSalt !== undefined) return sharedSalt;
    if (!redis.isUp()) return local.ipHashSalt();
    try {
      return await syncSalt();
    } catch (error) {
      redis.fellBack('reports', error);
      return local.ipHashSalt();
    }
  }

  async function close(): Promise<void> {
    closed = true;
    await healing;
  }

  return { add, has, list, ipHashSalt, close };
}

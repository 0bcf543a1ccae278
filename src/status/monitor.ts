import { endpoints } from '../catalog/endpoints/index.js';
import type { CatalogService } from '../catalog/service.js';
import type { Logger } from '../config/logger.js';
import type { StatusHistoryStore } from './historyStore.js';
import type { UpstreamClient } from '../upstream/client.js';
import { buildHistory, type StatusHistory } from './history.js';
import { probeUpstream, type ProbeDeps } from './probe.js';
import { DAY_MS, HISTORY_DAYS, HOUR_MS, type ProbeRecord, type StatusRecord, type TrafficRecord } from './records.js';
import type { ProbeSchedule } from './schedule.js';
import { TrafficRecorder } from './traffic.js';

/** The status probe fetches the upstream's home page this often (the answer warms the cache). */
export const PROBE_INTERVAL_MS = 5 * 60_000;

export interface StatusMonitorDeps {
  store: StatusHistoryStore;
  catalog: CatalogService;
  upstream: UpstreamClient;
  logger: Logger;
  now: () => number;
  /** The contract's code of a failed probe. */
  errorCodeOf: ProbeDeps['errorCodeOf'];
  probeIntervalMs: number;
  schedule: ProbeSchedule;
}

export interface StatusMonitor {
  /** The request log's "finished" hook: counts one answer of the API. */
  recordRequest: TrafficRecorder['record'];
  /** Runs one probe now (a probe already under way is joined) and saves it; null when the service was too busy to probe. */
  probeNow(): Promise<ProbeRecord | null>;
  history(): Promise<StatusHistory>;
  /** Stops the probe and saves the traffic counted so far. */
  close(): Promise<void>;
}

const TABLE_PATHS = endpoints.map((endpoint) => endpoint.path);
const KEPT_MS = HISTORY_DAYS * DAY_MS;
// 24 hours plus the hour under way.
const TRAFFIC_SHOWN_MS = 25 * HOUR_MS;

/**
 * The status page's data: probes the upstream on a schedule, counts the API's answers, and keeps
 * both in the history store. What it shows is what the store holds (read incrementally, so with
 * Redis the probes of every instance), plus this instance's traffic of the current hour.
 */
export function createStatusMonitor({
  store,
  catalog,
  upstream,
  logger,
  now,
  errorCodeOf,
  probeIntervalMs,
  schedule,
}: StatusMonitorDeps): StatusMonitor {
  const startedAt = now();
  const traffic = new TrafficRecorder(now);
  let probes: ProbeRecord[] = [];
  let trafficRecords: TrafficRecord[] = [];
  let cursor: string | null = null;
  // Store operations run one at a time, so that a read never races an append or a prune.
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const result = queue.then(task);
    queue = result.catch(() => undefined);
    return result;
  };

  function keep(records: readonly StatusRecord[]): void {
    // The page shows the traffic of the last 24 hours only; the store keeps 90 days of it.
    const trafficFrom = now() - TRAFFIC_SHOWN_MS;
    for (const record of records) {
      if (record.kind === 'probe') probes.push(record);
      else if (record.hour >= trafficFrom) trafficRecords.push(record);
    }
    if (trafficRecords[0] !== undefined && trafficRecords[0].hour < trafficFrom)
      trafficRecords = trafficRecords.filter((record) => record.hour >= trafficFrom);
    // Instances sharing a store append in their own time; the arithmetic wants probes in order.
    probes.sort((a, b) => a.at - b.at);
  }

  async function readNew(): Promise<void> {
    try {
      const read = await store.read(cursor);
      keep(read.records);
      cursor = read.cursor;
    } catch (error) {
      logger.error({ err: error }, 'could not read the status history; showing what was read before');
    }
  }

  async function save(records: StatusRecord[]): Promise<void> {
    if (records.length === 0) return;
    try {
      await store.append(records);
    } catch (error) {
      logger.error({ err: error, records: records.length }, 'could not save status records; kept in memory only');
      keep(records);
      return;
    }
    await readNew();
  }

  /** Drops what is past the 90 days, at most once a day. */
  async function pruneWhenDue(): Promise<void> {
    const keepFrom = now() - KEPT_MS;
    const oldest = probes[0]?.at ?? Infinity;
    if (oldest >= keepFrom - DAY_MS) return;
    try {
      await store.prune(keepFrom);
      probes = [];
      trafficRecords = [];
      cursor = null;
      await readNew();
    } catch (error) {
      logger.error({ err: error }, 'could not prune the status history');
    }
  }

  const loaded = exclusive(readNew);
  let running: Promise<ProbeRecord | null> | undefined;

  function probeNow(): Promise<ProbeRecord | null> {
    running ??= (async () => {
      await loaded;
      const probe = await probeUpstream({ catalog, upstream, now, errorCodeOf });
      if (probe === null) logger.info('status probe skipped: no connection turn or parse slot was free');
      else if (probe.outcome === 'down') logger.warn({ code: probe.code, origin: probe.origin }, 'status probe failed');
      await exclusive(async () => {
        await save([...(probe === null ? [] : [probe]), ...traffic.takeFinished()]);
        await pruneWhenDue();
      });
      return probe;
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  const timer = schedule(probeNow, probeIntervalMs);

  return {
    recordRequest: traffic.record,
    probeNow,
    history: () =>
      exclusive(async () => {
        await readNew();
        // Built on each call: its one caller, the status route, builds its pages at most every few
        // seconds (STATUS_REBUILT_AFTER_MS), so a flood of /status costs no more builds than that.
        return buildHistory({
          probes,
          traffic: [...trafficRecords, ...traffic.unsaved()],
          now: now(),
          probeIntervalMs,
          apiSince: startedAt,
          endpoints: TABLE_PATHS,
          lastGood: catalog.lastGood(),
        });
      }),
    async close() {
      timer.stop();
      await running?.catch(() => undefined);
      await exclusive(() => save(traffic.takeAll()));
    },
  };
}

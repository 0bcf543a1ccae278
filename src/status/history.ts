import type { LastGoodState } from '../catalog/answerLifecycle.js';
import { causeOf } from './causes.js';
import { DAY_MS, HISTORY_DAYS, HOUR_MS, type ProbeRecord, type TrafficRecord } from './records.js';
import { latencyByHour, trafficByEndpoint, type EndpointTraffic, type LatencySummary } from './trafficSummary.js';
import { currentState, incidents, slots, uptime, type Slot, type SlotState, type Uptime } from './uptime.js';

// GET /health/history and the status page read this one shape; the README documents it.

/** Days start at midnight in Western Indonesia Time (UTC+7, no daylight saving): the readers' day. */
const WIB_OFFSET_MS = 7 * HOUR_MS;
/** The last probe is "current" for this many intervals; after that the state is unknown. */
const STALE_AFTER_INTERVALS = 2.5;
const RECENT_INCIDENTS = 10;

export interface HistorySlot {
  start: string;
  end: string;
  state: SlotState;
  probes: number;
  failed: number;
}

export interface StatusHistory {
  generatedAt: string;
  probeIntervalSeconds: number;
  upstream: {
    state: 'up' | 'down' | 'unknown';
    since: string | null;
    lastProbe: { at: string; outcome: 'up' | 'down'; code: string | null; durationMs: number; origin: string } | null;
    uptime: { '24h': Uptime; '7d': Uptime; '30d': Uptime };
  };
  api: {
    state: 'up';
    since: string;
    /** Set while this instance serves last good answers in place of failed fetches (none fetched since). */
    lastGood: { since: string; lastServedAt: string; lastReason: string; served: number } | null;
  };
  hours: HistorySlot[];
  days: HistorySlot[];
  incidents: { start: string; end: string | null; durationSeconds: number | null; codes: string[]; cause: string; failedProbes: number }[];
  responseTimes: {
    probes: { at: string; outcome: 'up' | 'down'; durationMs: number }[];
    api: ({ hour: string } & LatencySummary)[];
  };
  traffic24h: EndpointTraffic[];
}

export interface HistoryInput {
  probes: readonly ProbeRecord[];
  traffic: readonly TrafficRecord[];
  now: number;
  probeIntervalMs: number;
  /** When this instance started answering. */
  apiSince: number;
  /** The endpoint table's paths, in its order. */
  endpoints: readonly string[];
  /** The catalog's serving of last good answers, if it is under way. */
  lastGood?: LastGoodState;
}

const iso = (ms: number) => new Date(ms).toISOString();
const hourStart = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
const dayStart = (ms: number) => Math.floor((ms + WIB_OFFSET_MS) / DAY_MS) * DAY_MS - WIB_OFFSET_MS;

/** `count` consecutive boundaries of `step` whose last slot holds `now`; count + 1 boundaries. */
function boundaries(lastStart: number, step: number, count: number): number[] {
  return Array.from({ length: count + 1 }, (_, index) => lastStart - (count - 1 - index) * step);
}

const toHistorySlot = (slot: Slot): HistorySlot => ({ ...slot, start: iso(slot.start), end: iso(slot.end) });

/** The status history as of `now`: pure, from the probes (sorted by time) and traffic records. */
export function buildHistory({ probes, traffic, now, probeIntervalMs, apiSince, endpoints, lastGood }: HistoryInput): StatusHistory {
  const current = currentState(probes, now, probeIntervalMs * STALE_AFTER_INTERVALS);
  const last = probes.at(-1);
  const hourBoundaries = boundaries(hourStart(now), HOUR_MS, 24);
  const hourStarts = hourBoundaries.slice(0, -1);
  const dayFrom = now - 24 * HOUR_MS;
  return {
    generatedAt: iso(now),
    probeIntervalSeconds: probeIntervalMs / 1000,
    upstream: {
      state: current.state,
      since: current.since === null ? null : iso(current.since),
      lastProbe: last
        ? { at: iso(last.at), outcome: last.outcome, code: last.code, durationMs: last.durationMs, origin: last.origin }
        : null,
      uptime: {
        '24h': uptime(probes, dayFrom, now + 1),
        '7d': uptime(probes, now - 7 * DAY_MS, now + 1),
        '30d': uptime(probes, now - 30 * DAY_MS, now + 1),
      },
    },
    api: {
      state: 'up',
      since: iso(apiSince),
      lastGood:
        lastGood === undefined
          ? null
          : { since: iso(lastGood.since), lastServedAt: iso(lastGood.lastAt), lastReason: lastGood.lastReason, served: lastGood.served },
    },
    hours: slots(probes, hourBoundaries).map(toHistorySlot),
    days: slots(probes, boundaries(dayStart(now), DAY_MS, HISTORY_DAYS)).map(toHistorySlot),
    incidents: incidents(probes)
      .slice(-RECENT_INCIDENTS)
      .reverse()
      .map((incident) => ({
        start: iso(incident.start),
        end: incident.end === null ? null : iso(incident.end),
        durationSeconds: incident.end === null ? null : Math.round((incident.end - incident.start) / 1000),
        codes: incident.codes,
        cause: incident.codes.map(causeOf).join('; '),
        failedProbes: incident.failedProbes,
      })),
    responseTimes: {
      // The chart's hours: probes of the partial hour before the first one would fall off its left edge.
      probes: probes
        .filter((probe) => probe.at >= (hourStarts[0] as number))
        .map((probe) => ({ at: iso(probe.at), outcome: probe.outcome, durationMs: probe.durationMs })),
      api: latencyByHour(traffic, hourStarts).map((summary, index) => ({ hour: iso(hourStarts[index] as number), ...summary })),
    },
    traffic24h: trafficByEndpoint(traffic, hourStarts[0] as number, now + 1, endpoints),
  };
}

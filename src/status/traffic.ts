import { endpoints } from '../catalog/endpoints/index.js';
import { BUCKET_COUNT, countDuration, sparseCounts } from './buckets.js';
import { HOUR_MS, type TrafficRecord } from './records.js';

/** One endpoint's counts in the current hour; allocated once per endpoint and hour, then only bumped. */
interface HourCounts {
  successes: number;
  errors: Map<string, number>;
  miss: Uint32Array;
  hit: Uint32Array;
}

/** What the traffic counts read of a request's log line (src/http/middleware/requestLog.ts). */
export interface AnsweredRequest {
  /** The API's door names every request it resolved by the endpoint table's path, refusals included. */
  route: string;
  status: number;
  durationMs: number;
  errorCode?: string;
  cache?: unknown;
}

const tablePaths = new Set<string>(endpoints.map((endpoint) => endpoint.path));

/**
 * The API's own outcomes per endpoint and hour, fed by the request log's "finished" hook. On the
 * hot path a request costs a lookup, a counter bump and a histogram bucket; an hour's counts become
 * records once the hour is over (or the service stops).
 */
export class TrafficRecorder {
  private hour = Number.NEGATIVE_INFINITY;
  private hourEnd = Number.NEGATIVE_INFINITY;
  private counts = new Map<string, HourCounts>();
  private finished: TrafficRecord[] = [];

  constructor(private readonly now: () => number) {}

  /** Counts one finished request; requests outside the endpoint table are not counted. */
  readonly record = (line: AnsweredRequest): void => {
    if (!tablePaths.has(line.route)) return;
    const counts = this.countsOf(line.route);
    if (line.status >= 400) {
      const code = line.errorCode ?? `HTTP_${line.status}`;
      counts.errors.set(code, (counts.errors.get(code) ?? 0) + 1);
      return;
    }
    counts.successes++;
    if (line.cache === 'MISS') countDuration(counts.miss, line.durationMs);
    else if (line.cache === 'HIT' || line.cache === 'STALE') countDuration(counts.hit, line.durationMs);
  };

  /** The records of hours that are over, handed out once. */
  takeFinished(): TrafficRecord[] {
    this.rollOver();
    return this.finished.splice(0);
  }

  /** Everything not yet handed out, the current hour included: what a stopping service saves. */
  takeAll(): TrafficRecord[] {
    this.rollOver();
    this.finishHour();
    return this.finished.splice(0);
  }

  /** What is not handed out yet, the current hour so far included, without handing it out. */
  unsaved(): TrafficRecord[] {
    this.rollOver();
    return [...this.finished, ...this.recordsOfHour()];
  }

  private countsOf(endpoint: string): HourCounts {
    this.rollOver();
    let counts = this.counts.get(endpoint);
    if (counts === undefined) {
      counts = { successes: 0, errors: new Map(), miss: new Uint32Array(BUCKET_COUNT), hit: new Uint32Array(BUCKET_COUNT) };
      this.counts.set(endpoint, counts);
    }
    return counts;
  }

  private rollOver(): void {
    const now = this.now();
    if (now < this.hourEnd && now >= this.hour) return;
    this.finishHour();
    this.hour = Math.floor(now / HOUR_MS) * HOUR_MS;
    this.hourEnd = this.hour + HOUR_MS;
  }

  private finishHour(): void {
    this.finished.push(...this.recordsOfHour());
    this.counts = new Map();
  }

  private recordsOfHour(): TrafficRecord[] {
    return [...this.counts].map(([endpoint, counts]) => ({
      kind: 'traffic',
      hour: this.hour,
      endpoint,
      successes: counts.successes,
      errors: Object.fromEntries(counts.errors),
      miss: sparseCounts(counts.miss),
      hit: sparseCounts(counts.hit),
    }));
  }
}

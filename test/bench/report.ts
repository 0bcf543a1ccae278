import { cpus } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The bench's table. Every goal compares two figures measured in the same run (the service against a
// reference doing the same work on the same machine at the same time), because absolute times move
// with the machine and with whatever else it runs; a figure without a goal is printed for reading.

interface Row {
  measure: string;
  value: string;
  goal: string;
  met: boolean | null;
}

export class BenchReport {
  readonly #rows: Row[] = [];
  readonly #started = new Date();
  readonly #durations: string[] = [];

  /** Runs one section; how long it took is printed after it and with the table. */
  async timed(name: string, section: (report: BenchReport) => Promise<void>): Promise<void> {
    const started = performance.now();
    await section(this);
    const took = duration(performance.now() - started);
    this.#durations.push(`${name} ${took}`);
    console.log(`  (${name}: ${took})`);
  }

  /** A section's heading, printed as it starts. */
  section(title: string): void {
    console.log(title);
  }

  /** A goal: `value` is the ratio or difference the goal reads, with the figures it comes from. */
  goal(measure: string, value: string, goal: string, met: boolean): void {
    this.#rows.push({ measure, value, goal, met });
    console.log(`  ${met ? 'ok  ' : 'MISS'} ${measure}: ${value} (goal ${goal})`);
  }

  /** A figure for reading, with no goal. */
  figure(measure: string, value: string): void {
    this.#rows.push({ measure, value, goal: '—', met: null });
    console.log(`       ${measure}: ${value}`);
  }

  /** Every goal met so far. */
  get allMet(): boolean {
    return this.#rows.every((row) => row.met !== false);
  }

  /** The run as a Markdown table, for the README's Performance section. */
  print(): void {
    console.log(
      `\n${this.#started.toISOString().slice(0, 16).replace('T', ' ')} UTC · ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} · Node ${process.version}`,
    );
    console.log('| measure | value | goal | met |\n|---|---|---|---|');
    for (const row of this.#rows)
      console.log(`| ${row.measure} | ${row.value} | ${row.goal} | ${row.met === null ? '' : row.met ? 'yes' : 'no'} |`);
    console.log(`\nSections: ${this.#durations.join(' · ')}; total ${duration(Date.now() - this.#started.getTime())}.`);
    console.log(this.allMet ? 'Every goal met.' : 'Some goals missed (MISS above).');
  }
}

/** "48 s", "7 min 12 s". */
function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** Each round's figure of ours and of the reference, and their ratio (ours / reference). */
export interface RoundRatios {
  ours: number[];
  reference: number[];
  ratios: number[];
}

/**
 * `rounds` rounds of ours then the reference (A, B, A, B…): each callback measures one round and
 * gives its figure (a median time, a rate). Whatever else the shared machine runs weighs on both
 * figures of a round alike, so a goal is judged on the median of the rounds' ratios. `settled`
 * may end the rounds early, once the ratios so far leave no doubt.
 */
export async function alternatingRatios(
  rounds: number,
  ours: () => number | Promise<number>,
  reference: () => number | Promise<number>,
  settled: (ratios: readonly number[]) => boolean = () => false,
): Promise<RoundRatios> {
  const result: RoundRatios = { ours: [], reference: [], ratios: [] };
  while (result.ratios.length < rounds && !settled(result.ratios)) {
    result.ours.push(await ours());
    result.reference.push(await reference());
    result.ratios.push(result.ours.at(-1)! / result.reference.at(-1)!);
  }
  return result;
}

/** Every round's ratio and their spread, for a goal's value: "rounds 0.12, 0.14, 0.13; spread 0.12–0.14". */
export function roundsText(ratios: readonly number[], digits: number): string {
  const sorted = [...ratios].sort((a, b) => a - b);
  return `rounds ${ratios.map((ratio) => ratio.toFixed(digits)).join(', ')}; spread ${sorted[0]!.toFixed(digits)}–${sorted.at(-1)!.toFixed(digits)}`;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** The median time of `runs` calls of `work`, after `warmUp` calls that are not timed. */
export function medianTime(work: () => unknown, runs: number, warmUp = Math.min(20, runs)): number {
  const times: number[] = [];
  for (let run = 0; run < runs + warmUp; run++) {
    const started = performance.now();
    work();
    if (run >= warmUp) times.push(performance.now() - started);
  }
  return median(times);
}

/** One side's figures in a round: the median time and the median minor page faults of its timed calls. */
interface CallFigures {
  ms: number;
  faults: number;
}

let fullCollection: (() => void) | undefined;
/** Untimed calls after a round's collection, on both sides, until the side's code is optimized again. */
export const WARM_UP_AFTER_COLLECTION_MS = 40;

/**
 * One side's round from a collected heap: a full collection, untimed calls for at least
 * WARM_UP_AFTER_COLLECTION_MS (two at least), then `runs` calls, each timed alone. The collection leaves no side the other's
 * garbage to collect, and it makes every round of a side start from the heap state every run
 * reaches, so that its calls fall at the same points of V8's collection cycle each time (the page
 * faults per call show it). A forced collection also drops the optimized code whose embedded
 * objects died, the parsers' among it; the warm-up gives each side its optimized code back (it is
 * compiled on a background thread, hence a time, not a count) before the clock starts.
 */
export function callsFromCollectedHeap(work: () => unknown, runs: number): CallFigures {
  // The flag set at run time gives `gc` to contexts made after it, so `npm run bench` needs no flag.
  fullCollection ??= (setFlagsFromString('--expose-gc'), runInNewContext('gc') as () => void);
  fullCollection();
  const warmUpEnds = performance.now() + WARM_UP_AFTER_COLLECTION_MS;
  for (let run = 0; run < 2 || performance.now() < warmUpEnds; run++) work();
  const times: number[] = [];
  const faults: number[] = [];
  for (let run = 0; run < runs; run++) {
    const faultsBefore = process.resourceUsage().minorPageFault;
    const started = performance.now();
    work();
    times.push(performance.now() - started);
    faults.push(process.resourceUsage().minorPageFault - faultsBefore);
  }
  return { ms: median(times), faults: median(faults) };
}

/** One timed GET, body read. */
export async function timedGet(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return performance.now() - started;
}

/** The value at `share` (0.99 for p99) of `values`. */
export function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? NaN;
}

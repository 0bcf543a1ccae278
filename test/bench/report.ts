import { cpus } from 'node:os';

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
    console.log(this.allMet ? '\nEvery goal met.' : '\nSome goals missed (MISS above).');
  }
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

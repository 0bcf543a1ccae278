import autocannon from 'autocannon';
import { cpuMs } from './processes.js';
import { median } from './report.js';

// Load rounds of one server (50 connections each), added up: sections alternate rounds of the
// servers they compare, so that the shared machine's swings weigh on each alike.

/** Requests, seconds and the CPU time the server's process spent over the rounds, with each round's latency. */
export interface LoadTally {
  requests: number;
  seconds: number;
  cpuMs: number;
  p50: number[];
  p99: number[];
}

/** Requests per second, the median round's p50 and p99 (ms), and the server's CPU per answer (µs). */
export interface LoadFigures {
  perSecond: number;
  p50: number;
  p99: number;
  cpuMicroseconds: number;
}

export const emptyTally = (): LoadTally => ({ requests: 0, seconds: 0, cpuMs: 0, p50: [], p99: [] });

/** One round of `seconds` on `url`, added to `tally`; `pid` is the server's process. */
export async function loadRound(tally: LoadTally, url: string, seconds: number, pid: number): Promise<void> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({ url, connections: 50, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  tally.requests += result.requests.total;
  tally.seconds += result.duration;
  tally.cpuMs += cpuMs(pid) - cpuBefore;
  tally.p50.push(result.latency.p50);
  tally.p99.push(result.latency.p99);
}

/** A server to load: its URL and its process, whose CPU time is counted. */
export interface LoadTarget {
  url: string;
  pid: number;
}

/** `rounds` rounds of each target in turn, `seconds` in all per target: each target's tally, in order. */
export async function alternatingRounds(targets: readonly LoadTarget[], seconds: number, rounds: number): Promise<LoadTally[]> {
  const tallies = targets.map(emptyTally);
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of targets.entries()) await loadRound(tallies[index]!, target.url, seconds / rounds, target.pid);
  }
  return tallies;
}

// CPU per request barely moves with what else the machine runs; req/s and latency do.
export const tallyFigures = (tally: LoadTally): LoadFigures => ({
  perSecond: tally.requests / tally.seconds,
  p50: median(tally.p50),
  p99: median(tally.p99),
  cpuMicroseconds: (tally.cpuMs * 1000) / tally.requests,
});

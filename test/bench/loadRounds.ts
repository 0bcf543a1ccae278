import autocannon from 'autocannon';
import { cpuMs, sentAnswer, startBareServer } from './processes.js';
import { median } from './report.js';

// Load rounds of one server (50 connections each), added up: sections alternate rounds of the
// servers they compare, so that the shared machine's swings weigh on each alike.

/** Requests, seconds and the CPU time the server's process spent over the rounds, with each round's rate and latency. */
export interface LoadTally {
  requests: number;
  seconds: number;
  cpuMs: number;
  perSecond: number[];
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

export const emptyTally = (): LoadTally => ({ requests: 0, seconds: 0, cpuMs: 0, perSecond: [], p50: [], p99: [] });

/** One round of `seconds` on `url`, added to `tally`; `pid` is the server's process. */
export async function loadRound(tally: LoadTally, url: string, seconds: number, pid: number): Promise<void> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({ url, connections: 50, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  tally.requests += result.requests.total;
  tally.seconds += result.duration;
  tally.cpuMs += cpuMs(pid) - cpuBefore;
  tally.perSecond.push(result.requests.total / result.duration);
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

/** What `againstBare` measured: the body both servers sent, and each one's tally. */
export interface AgainstBare {
  body: Buffer;
  ours: LoadTally;
  bare: LoadTally;
}

/**
 * `target` against a bare node:http server sending the same head and body (what `target.url` answered
 * a GET with `headers` first, startBareServer): both warmed up for `warmUpSeconds`, so that no round measures code still being
 * compiled, then `rounds` alternating rounds, `seconds` in all for each. The bare server is stopped after.
 */
export async function againstBare(
  target: LoadTarget,
  seconds: number,
  rounds: number,
  { warmUpSeconds, headers }: { warmUpSeconds: number; headers?: Record<string, string> },
): Promise<AgainstBare> {
  const answer = await sentAnswer(target.url, headers);
  const bare = await startBareServer(answer);
  try {
    for (const url of [target.url, bare.origin]) await autocannon({ url, connections: 50, duration: warmUpSeconds });
    const [ours, baseline] = (await alternatingRounds([target, { url: bare.origin, pid: bare.pid }], seconds, rounds)) as [
      LoadTally,
      LoadTally,
    ];
    return { body: answer.body, ours, bare: baseline };
  } finally {
    await bare.stop();
  }
}

import autocannon from 'autocannon';
import { startSimulator } from '../simulator/server.js';
import { median } from './parse.js';
import { cpuMs, startService } from './processes.js';

const HIT_PATH = '/catalog/popular-series';
// The red-team pass of issue 26 moved the hit p99 with 16 connections on /status.
const FLOOD_CONNECTIONS = 16;
const ROUNDS = 3;

export interface StatusFloodFigures {
  /** Hit requests per second, p50 and p99 (ms, median of the rounds) with nothing else running. */
  alone: { perSecond: number; p50: number; p99: number };
  /** The same with a flood on /health beside it: what any flood of a cheap page costs on one event loop. */
  beside: { perSecond: number; p50: number; p99: number };
  /** The same with a flood on /status beside it. */
  flooded: { perSecond: number; p50: number; p99: number };
  /** /status answers per second during the flood. */
  statusPerSecond: number;
  /** The service's CPU time per answer (µs) of /status and of /health, each loaded alone. */
  cpuMicroseconds: { status: number; health: number };
}

interface Round {
  perSecond: number;
  p50: number;
  p99: number;
}

const summary = (rounds: Round[]) => ({
  perSecond: Math.round(median(rounds.map((round) => round.perSecond))),
  p50: median(rounds.map((round) => round.p50)),
  p99: median(rounds.map((round) => round.p99)),
});

/** The service's CPU time per answer of `url` (µs), over 3,000 requests on 8 connections. */
async function cpuPerAnswer(pid: number, url: string): Promise<number> {
  const before = cpuMs(pid);
  const result = await autocannon({ url, connections: 8, amount: 3000 });
  return Math.round(((cpuMs(pid) - before) * 1000) / result.requests.total);
}

/**
 * What one client hammering the status page costs everyone else: the service's CPU per /status
 * answer against /health's, then cached hits alone, beside a flood on /health (what a flood of the
 * cheapest page costs on one event loop) and beside a flood on /status, in alternating rounds so
 * that the shared machine's swings weigh on all three alike.
 */
export async function measureStatusFlood(latencyMs: number, seconds: number, env: Record<string, string>): Promise<StatusFloodFigures> {
  const simulator = await startSimulator({ latencyMs });
  const service = await startService({ ...env, UPSTREAM_BASE_URLS: simulator.origin });
  try {
    const hitUrl = service.origin + HIT_PATH;
    const statusUrl = `${service.origin}/status`;
    await (await fetch(hitUrl)).arrayBuffer();
    await autocannon({ url: hitUrl, connections: 50, duration: 2 });
    await autocannon({ url: statusUrl, connections: FLOOD_CONNECTIONS, duration: 2 });
    const cpuMicroseconds = { status: await cpuPerAnswer(service.pid, statusUrl), health: await cpuPerAnswer(service.pid, `${service.origin}/health`) };
    const alone: Round[] = [];
    const beside: Round[] = [];
    const flooded: Round[] = [];
    let statusAnswers = 0;
    let statusSeconds = 0;
    const roundSeconds = seconds / ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      const quiet = await autocannon({ url: hitUrl, connections: 50, duration: roundSeconds });
      alone.push({ perSecond: quiet.requests.total / quiet.duration, p50: quiet.latency.p50, p99: quiet.latency.p99 });
      const [cheapHits] = await Promise.all([
        autocannon({ url: hitUrl, connections: 50, duration: roundSeconds }),
        autocannon({ url: `${service.origin}/health`, connections: FLOOD_CONNECTIONS, duration: roundSeconds }),
      ]);
      beside.push({ perSecond: cheapHits.requests.total / cheapHits.duration, p50: cheapHits.latency.p50, p99: cheapHits.latency.p99 });
      const [hits, flood] = await Promise.all([
        autocannon({ url: hitUrl, connections: 50, duration: roundSeconds }),
        autocannon({ url: statusUrl, connections: FLOOD_CONNECTIONS, duration: roundSeconds }),
      ]);
      if (hits.non2xx + flood.non2xx + hits.errors + flood.errors > 0) throw new Error('non-2xx answers or errors under the /status flood');
      flooded.push({ perSecond: hits.requests.total / hits.duration, p50: hits.latency.p50, p99: hits.latency.p99 });
      statusAnswers += flood.requests.total;
      statusSeconds += flood.duration;
    }
    return {
      alone: summary(alone),
      beside: summary(beside),
      flooded: summary(flooded),
      statusPerSecond: Math.round(statusAnswers / statusSeconds),
      cpuMicroseconds,
    };
  } finally {
    await Promise.all([service.stop(), simulator.close()]);
  }
}

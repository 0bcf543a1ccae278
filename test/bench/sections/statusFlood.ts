import autocannon from 'autocannon';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { startSimulator } from '../../simulator/server.js';
import { cpuMs, startService } from '../processes.js';
import { median, type BenchReport } from '../report.js';
import { LATENCY_MS, NO_QUOTA } from './settings.js';

const HIT_PATH = '/catalog/popular-series';
// Each page's flood: 16 connections, sent beside 50 clients of cached hits whose p99 it may move only so far.
const FLOOD_CONNECTIONS = 16;
const ROUNDS = 3;
/** A round of hits alone or beside one flood: thousands of hits, so that a round's p99 is not one slow answer's. */
const ROUND_SECONDS = 1;
/** Each page's flood before the rounds, so that no round measures its path being compiled: hundreds of answers. */
const FLOOD_WARM_UP_SECONDS = 0.5;

/**
 * The pages a client may flood without a quota, each with what it answers; /health first, the
 * cheapest answer of all, whose flood says what any flood costs on one event loop. The error
 * page is a browser's 404; /metrics is for a scraper, but public too.
 */
const FLOODS = [
  { name: '/health', path: '/health', status: 200 },
  { name: '/status', path: '/status', status: 200 },
  { name: '/docs', path: '/docs', status: 200 },
  { name: '/openapi.json', path: '/openapi.json', status: 200 },
  { name: 'landing /', path: '/', status: 200 },
  { name: '/report', path: '/report', status: 200 },
  { name: 'error page', path: '/no-such-page', status: 404, headers: { accept: 'text/html' } },
  { name: '/metrics', path: '/metrics', status: 200 },
] as const;

type FloodName = (typeof FLOODS)[number]['name'];

// Both clients, the hits' and the flood's, run on threads of their own, as other clients would run
// on machines of their own, so that the hits' latency counts the service's wait and nothing of this
// process's: on its event loop, reading a flood of large answers (/openapi.json) would delay the
// hits' client, and so would a major GC of whatever the sections before this one left in its heap
// (the costs section's request/response pairs), which stops that thread for longer than a p99.
// Each thread's heap is made for this section. A thread says when its load has started, so that
// the hits start beside the flood.
const LOAD_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const autocannon = require(workerData.autocannon);
const aggregateResult = require(workerData.aggregateResult);
parentPort.on('message', (options) => {
  // Off the main thread autocannon gives its raw result, which its own worker mode adds up with
  // aggregateResult, as here: the answers are its totalCompletedRequests.
  autocannon(options, (error, raw) => {
    const result = raw && aggregateResult(raw, options);
    parentPort.postMessage({
      error: error?.message,
      result: result && {
        answers: raw.totalCompletedRequests,
        duration: raw.duration,
        non2xx: raw.non2xx,
        errors: raw.errors,
        p50: result.latency.p50,
        p99: result.latency.p99,
      },
    });
  });
  parentPort.postMessage({ started: true });
});`;

/** A load's answers in all, its seconds, the answers that were not 2xx or were errors, and its latency p50 and p99 (ms). */
interface LoadResult {
  answers: number;
  duration: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
}

interface LoadThread {
  /** Starts a load; `started` settles once it is sent, `done` with its result. One load at a time. */
  load(options: autocannon.Options): { started: Promise<void>; done: Promise<LoadResult> };
  stop(): Promise<number>;
}

function loadThread(): LoadThread {
  const require = createRequire(import.meta.url);
  const thread = new Worker(LOAD_THREAD, {
    eval: true,
    workerData: { autocannon: require.resolve('autocannon'), aggregateResult: require.resolve('autocannon/lib/aggregateResult.js') },
  });
  let current: { started(): void; settle(result: LoadResult | Error): void } | undefined;
  thread.on('message', (message: { started?: true; error?: string; result?: LoadResult }) => {
    if (message.started) return current?.started();
    const load = current;
    current = undefined;
    load?.settle(message.result ?? new Error(`a load failed: ${message.error}`));
  });
  thread.on('error', (error) => current?.settle(error));
  return {
    load(options) {
      let started = () => {};
      const startedPromise = new Promise<void>((resolve) => (started = resolve));
      const done = new Promise<LoadResult>((resolve, reject) => {
        current = {
          started,
          settle: (result) => {
            // A load that failed before it started must not leave its caller waiting for the start.
            started();
            if (result instanceof Error) reject(result);
            else resolve(result);
          },
        };
      });
      thread.postMessage(options);
      return { started: startedPromise, done };
    },
    stop: () => thread.terminate(),
  };
}

/** A page's flood may move other clients' cached-hit p99 to at most this many times their p99 beside a /health flood, plus PAGE_FLOOD_SLACK_MS. */
const PAGE_FLOOD_P99_RATIO = 2;
const PAGE_FLOOD_SLACK_MS = 5;

interface Round {
  perSecond: number;
  p50: number;
  p99: number;
}

interface StatusFloodFigures {
  /** Hit requests per second, p50 and p99 (ms, median of the rounds) with nothing else running. */
  alone: Round;
  /** The same beside a flood of each page. */
  beside: Record<FloodName, Round>;
  /** Each page's answers per second during its flood. */
  floodPerSecond: Record<FloodName, number>;
  /** The service's CPU time per answer (µs) of /status and of /health, each loaded alone. */
  cpuMicroseconds: { status: number; health: number };
}

const summary = (rounds: Round[]): Round => ({
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
 * What one client hammering a page costs everyone else: the service's CPU per /status answer
 * against /health's, then cached hits alone and beside a flood of each page, in alternating
 * rounds so that the shared machine's swings weigh on all alike.
 */
async function measurePageFloods(latencyMs: number, env: Record<string, string>): Promise<StatusFloodFigures> {
  const simulator = await startSimulator({ latencyMs });
  const service = await startService({ ...env, UPSTREAM_BASE_URLS: simulator.origin });
  const [hitThread, floodThread] = [loadThread(), loadThread()];
  try {
    const hitUrl = service.origin + HIT_PATH;
    const statusUrl = `${service.origin}/status`;
    const hitsFor = (duration: number) => hitThread.load({ url: hitUrl, connections: 50, duration }).done;
    const floodOf = (flood: (typeof FLOODS)[number], duration: number) =>
      floodThread.load({
        url: service.origin + flood.path,
        headers: { ...('headers' in flood ? flood.headers : {}) },
        connections: FLOOD_CONNECTIONS,
        duration,
      });
    await (await fetch(hitUrl)).arrayBuffer();
    await hitsFor(2);
    for (const flood of FLOODS) await floodOf(flood, FLOOD_WARM_UP_SECONDS).done;
    const cpuMicroseconds = {
      status: await cpuPerAnswer(service.pid, statusUrl),
      health: await cpuPerAnswer(service.pid, `${service.origin}/health`),
    };
    const alone: Round[] = [];
    const beside = Object.fromEntries(FLOODS.map((flood) => [flood.name, [] as Round[]])) as Record<FloodName, Round[]>;
    const answers = Object.fromEntries(FLOODS.map((flood) => [flood.name, { count: 0, seconds: 0 }])) as Record<
      FloodName,
      { count: number; seconds: number }
    >;
    for (let round = 0; round < ROUNDS; round++) {
      const quiet = await hitsFor(ROUND_SECONDS);
      alone.push({ perSecond: quiet.answers / quiet.duration, p50: quiet.p50, p99: quiet.p99 });
      for (const flood of FLOODS) {
        const { started, done } = floodOf(flood, ROUND_SECONDS);
        await started;
        const [hits, pages] = await Promise.all([hitsFor(ROUND_SECONDS), done]);
        const expected = flood.status === 200 ? pages.non2xx === 0 : pages.non2xx === pages.answers;
        if (hits.non2xx + hits.errors + pages.errors > 0 || !expected)
          throw new Error(`unexpected answers or errors under the ${flood.name} flood`);
        beside[flood.name].push({ perSecond: hits.answers / hits.duration, p50: hits.p50, p99: hits.p99 });
        answers[flood.name].count += pages.answers;
        answers[flood.name].seconds += pages.duration;
      }
    }
    return {
      alone: summary(alone),
      beside: Object.fromEntries(FLOODS.map((flood) => [flood.name, summary(beside[flood.name])])) as Record<FloodName, Round>,
      floodPerSecond: Object.fromEntries(
        FLOODS.map((flood) => [flood.name, Math.round(answers[flood.name].count / answers[flood.name].seconds)]),
      ) as Record<FloodName, number>,
      cpuMicroseconds,
    };
  } finally {
    await Promise.all([service.stop(), simulator.close(), hitThread.stop(), floodThread.stop()]);
  }
}

/** /status's CPU per answer against /health's, and cached hits beside a flood of each page against beside a /health flood. */
export async function statusFloodSection(report: BenchReport): Promise<void> {
  report.section(
    `/status against /health, and the cache-hit path alone and beside a flood of each page (${FLOOD_CONNECTIONS} connections each)`,
  );
  const { alone, beside, floodPerSecond, cpuMicroseconds } = await measurePageFloods(LATENCY_MS, NO_QUOTA);
  const figures = (hits: Round) => `${hits.perSecond} req/s, p50 ${hits.p50} / p99 ${hits.p99} ms`;
  const cpuRatio = cpuMicroseconds.status / cpuMicroseconds.health;
  report.goal(
    'server CPU per /status answer against /health',
    `${cpuRatio.toFixed(1)} (${cpuMicroseconds.status} vs ${cpuMicroseconds.health} µs)`,
    '≤ 3',
    cpuRatio <= 3,
  );
  const base = beside['/health'];
  report.figure('hit alone', figures(alone));
  report.figure('hit beside a /health flood', `${figures(base)}; /health ${floodPerSecond['/health']} req/s`);
  const bound = PAGE_FLOOD_P99_RATIO * base.p99 + PAGE_FLOOD_SLACK_MS;
  for (const flood of FLOODS.slice(1)) {
    const hits = beside[flood.name];
    report.goal(
      `hit p99 beside a ${flood.name} flood against beside a /health flood`,
      `${hits.p99} vs ${base.p99} ms (${figures(hits)}; ${flood.name} ${floodPerSecond[flood.name]} req/s)`,
      `≤ ${PAGE_FLOOD_P99_RATIO}× + ${PAGE_FLOOD_SLACK_MS} ms = ${bound} ms`,
      hits.p99 <= bound,
    );
  }
}

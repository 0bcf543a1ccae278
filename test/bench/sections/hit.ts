import { startSimulator } from '../../simulator/server.js';
import { againstBare, tallyFigures } from '../loadRounds.js';
import { startService } from '../processes.js';
import { median, roundsText, type BenchReport } from '../report.js';
import { HIT_PATH, LATENCY_MS, LOAD_SECONDS, NO_QUOTA } from './settings.js';

/** An odd count, for one median round. */
const HIT_ROUNDS = Number(process.env.BENCH_HIT_ROUNDS ?? 5);

/** Cache hits against a bare node:http server sending the same head and body: throughput ratio and p99 difference. */
export async function hitSection(report: BenchReport): Promise<void> {
  report.section(
    `cache hits against a bare node:http server sending the same head and body (${HIT_ROUNDS} alternating rounds each, 50 connections)`,
  );
  const simulator = await startSimulator({ latencyMs: LATENCY_MS });
  const service = await startService({ ...NO_QUOTA, UPSTREAM_BASE_URLS: simulator.origin });
  const {
    body,
    ours: oursTally,
    bare: bareTally,
  } = await againstBare({ url: service.origin + HIT_PATH, pid: service.pid }, LOAD_SECONDS, HIT_ROUNDS, { warmUpSeconds: 3 });
  const [ours, baseline] = [tallyFigures(oursTally), tallyFigures(bareTally)];
  // Each round of ours against the bare round right after it, which saw the same machine.
  const ratios = oursTally.perSecond.map((perSecond, round) => perSecond / bareTally.perSecond[round]!);
  const ratio = median(ratios);
  const kb = (body.length / 1024).toFixed(1);
  report.goal(
    `hit req/s against bare sending the same head and body, ${kb} KB body, median round`,
    `${ratio.toFixed(2)} (${Math.round(ours.perSecond)} vs ${Math.round(baseline.perSecond)} over all rounds; ${roundsText(ratios, 2)})`,
    'ratio ≥ 0.75',
    ratio >= 0.75,
  );
  // The median round's p99, with every round's: a stall of the shared machine shows in both servers' round.
  const [oursP99, bareP99] = [ours.p99, baseline.p99];
  report.goal(
    'hit p99 minus bare p99, median round',
    `${oursP99 - bareP99} ms (${oursP99} vs ${bareP99}; rounds' p99 ${oursTally.p99.join(', ')} vs ${bareTally.p99.join(', ')}; p50 ${ours.p50} vs ${baseline.p50})`,
    '≤ 5 ms',
    oursP99 - bareP99 <= 5,
  );
  report.figure('server CPU per hit', `${ours.cpuMicroseconds.toFixed(0)} µs vs bare ${baseline.cpuMicroseconds.toFixed(0)} µs`);
  await Promise.all([service.stop(), simulator.close()]);
}

// Measures the Chromium solver against the simulator's wall, for the README:
//   npx tsx test/measure/solve.ts
// 1. solve time: one cold solve (browser launch included), then five warm ones, with the simulator's
//    wall parameters (proof of work of difficulty 3, an 800 ms floor like Cloudflare's interstitial);
// 2. requests served per solve: sequential catalog pages through the client for a fixed time, with a
//    short clearance lifetime so that several solves happen in the window.
import { createLogger } from '../../src/config/logger.js';
import { chromiumSolver, testClient } from '../helpers/upstreamClient.js';
import { startSimulator } from '../simulator/server.js';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const walled = await startSimulator({ wall: { difficulty: 3, minSolveMs: 800 } });
const solver = chromiumSolver();
const times: number[] = [];
for (let i = 0; i < 6; i++) {
  const started = performance.now();
  await solver.solve(`${walled.origin}/ongoing/`);
  times.push(Math.round(performance.now() - started));
}
await solver.close();
await walled.close();
console.log(`solve times (ms): cold ${times[0]}, warm ${times.slice(1).join(', ')}; warm median ${median(times.slice(1))}`);

const clearanceTtlMs = 10_000;
const windowMs = 30_000;
const site = await startSimulator({ wall: { difficulty: 3, minSolveMs: 800, clearanceTtlMs } });
const { client } = testClient([site.origin], { solver: chromiumSolver(), timeoutMs: 15_000, logger: createLogger('silent') });
const paths = ['/', '/ongoing/', '/ongoing/page/2/', '/seri/?order=popular&page=1', '/?s=soul'];
let served = 0;
const until = Date.now() + windowMs;
while (Date.now() < until) {
  await client.fetchPage(paths[served % paths.length] as string);
  served++;
}
const solves = client.status().solves.ok;
await client.close();
await site.close();
console.log(
  `requests per solve: ${served} pages in ${windowMs / 1000} s with a ${clearanceTtlMs / 1000} s clearance: ${solves} solves, ` +
    `${Math.round(served / solves)} pages per solve (${Math.round(served / (windowMs / 1000))} pages/s)`,
);

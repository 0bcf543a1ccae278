// Parse time per page kind: median of 200 runs on real-size simulator pages (100–200 KB, full chrome).
// Run with `npx tsx test/bench/parse.bench.ts`; prints a table and asserts nothing.
import { endpoints } from '../../src/catalog/endpoints.js';
import { answerRoute } from '../simulator/site.js';
import { resolveRoute } from '../simulator/router.js';
import { VARIANTS } from '../simulator/variant.js';

const RUNS = 200;
const WARMUP = 20;
const origin = 'http://127.0.0.1:4000';
const ctx = { origin, host: '127.0.0.1:4000', variant: VARIANTS.cafe };

const cases = [
  ['home', '/catalog/home', '/', { page: 1 }],
  ['search', '/catalog/search', '/?s=a', { q: 'a', page: 1 }],
  ['genres', '/catalog/genres', '/', {}],
  ['ongoing', '/catalog/ongoing-series', '/ongoing/', { page: 1 }],
  ['popular', '/catalog/popular-series', '/seri/?order=popular&page=1', { page: 1 }],
  ['new movie', '/catalog/new-movie', '/seri/?type=movie&order=update&page=1', { page: 1 }],
] as const;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const rows = cases.map(([name, path, upstreamPath, query]) => {
  const url = new URL(upstreamPath, origin);
  const answer = answerRoute(ctx, resolveRoute(url));
  if (!("html" in answer)) throw new Error(`${upstreamPath} did not render a page`);
  const html = answer.html;
  const endpoint = endpoints.find((entry) => entry.path === path)!;
  const times: number[] = [];
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const started = performance.now();
    endpoint.parse(html, url.href, query as never);
    if (run >= WARMUP) times.push(performance.now() - started);
  }
  return { page: name, kb: Math.round(Buffer.byteLength(html) / 1024), medianMs: median(times).toFixed(2), minMs: Math.min(...times).toFixed(2) };
});
console.table(rows);

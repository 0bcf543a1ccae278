import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { CatalogAnswer } from '../../../src/catalog/answer.js';
import { endpoints } from '../../../src/catalog/endpoints/index.js';
import { createLogger } from '../../../src/config/logger.js';
import { openAnswerFile } from '../../../src/stores/answers/answerFile.js';
import { encodeAnswer } from '../../../src/stores/answers/storedAnswer.js';
import { resolveRoute } from '../../simulator/router.js';
import { startSimulator } from '../../simulator/server.js';
import { answerRoute } from '../../simulator/site.js';
import { VARIANTS } from '../../simulator/variant.js';
import { alternatingRounds, tallyFigures, type LoadFigures } from '../loadRounds.js';
import { startService } from '../processes.js';
import { medianTime, type BenchReport } from '../report.js';
import { LOAD_SECONDS, NO_QUOTA } from './settings.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ORIGIN = 'http://127.0.0.1:4000';
const RUNS = Number(process.env.BENCH_PARSE_RUNS ?? 200);
/** Answers of every kind around the largest one, as a file holds them after a day of traffic. */
const NEIGHBOURS = 2_000;
/** The heap must stay within the service's bound with this many kept answers. */
const KEPT_FOR_HEAP = 100_000;
const HEAP_READS = 10_000;
const ROUNDS = 4;

/** Page, endpoint and input of each kind the file holds; the first is the largest real page. */
const KINDS = [
  ['/seri/heaven-devouring-sovereign/', '/catalog/series/{slug}', { slug: 'heaven-devouring-sovereign' }],
  ['/', '/catalog/home', { page: 1 }],
  ['/ongoing/', '/catalog/ongoing-series', { page: 1 }],
  [
    '/shadow-chronicle-episode-100-subtitle-indonesia/',
    '/catalog/episode/{slug}',
    { slug: 'shadow-chronicle-episode-100-subtitle-indonesia' },
  ],
  ['/schedule/', '/catalog/schedule', {}],
  ['/?s=a', '/catalog/search', { q: 'a', page: 1 }],
] as const;

interface Kind {
  html: string;
  parse: () => unknown;
  answer: CatalogAnswer;
}

/** Each kind's page, its parse as a miss runs it today, and its answer as the service builds it. */
function kinds(): Kind[] {
  const ctx = { origin: ORIGIN, host: new URL(ORIGIN).host, variant: VARIANTS.cafe };
  return KINDS.map(([upstreamPath, path, input]) => {
    const url = new URL(upstreamPath, ORIGIN);
    const page = answerRoute(ctx, resolveRoute(url, ctx.variant));
    if (!('html' in page)) throw new Error(`${upstreamPath} did not render a page`);
    const endpoint = endpoints.find((entry) => entry.path === path)!;
    const parse = () => {
      const parsed = endpoint.parse(page.html, url.href, input as never);
      return JSON.stringify({ data: parsed.data, pagination: parsed.pagination });
    };
    const content = parse();
    const fetchedAt = Date.now();
    const meta = JSON.stringify({ source: url.href, fetchedAt: new Date(fetchedAt).toISOString() });
    const answer = {
      body: Buffer.from(`{"status":"success",${content.slice(1, -1)},"meta":${meta}}`),
      etag: 'W/"bench"',
      fetchedAt,
      ttlSeconds: 600,
    };
    return { html: page.html, parse, answer };
  });
}

const bytesIn = (dir: string) => readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
const silent = createLogger('silent');

/** The heap in use (after a full collection) of a process with the service's bound that opened `path` and read from it; '' opens nothing. */
async function heapOf(path: string, entries: number): Promise<{ heapUsed: number; found: number; kept: number }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--expose-gc',
      '--max-old-space-size=160',
      '--import',
      'tsx',
      'test/bench/keptAnswersHeap.ts',
      path,
      String(entries),
      String(HEAP_READS),
    ],
    { cwd: ROOT },
  );
  return JSON.parse(stdout) as { heapUsed: number; found: number; kept: number };
}

/**
 * The kept answers: reading the largest real page's answer from the file against parsing the page
 * as a miss does; bytes on disk per answer; the heap of a process holding 100,000 of them; and last
 * good answers served over HTTP while the whole site is down, against hits of the same service.
 */
export async function lastGoodSection(report: BenchReport): Promise<void> {
  report.section('last good answers: read against parse, bytes on disk, heap with 100,000 kept, stale answers over HTTP');
  const dir = mkdtempSync(join(tmpdir(), 'bench-kept-'));
  try {
    const all = kinds();
    const largest = all[0]!;
    const file = openAnswerFile({
      path: join(dir, 'answers.sqlite'),
      maxBytes: 512 * 2 ** 20,
      keepUntil: () => Date.now() + 86_400_000,
      now: Date.now,
      logger: silent,
    });
    let storedBytes = 0;
    for (let i = 0; i < NEIGHBOURS; i++) {
      const { answer } = all[i % all.length]!;
      file.write(`answer-${i}`, answer);
      storedBytes += encodeAnswer(answer).length + `answer-${i}`.length;
    }
    const read = medianTime(() => file.read('answer-0'), RUNS);
    const parse = medianTime(largest.parse, RUNS);
    const kb = (size: number) => `${Math.round(size / 1024)} KB`;
    report.goal(
      `read the largest real page's kept answer (${kb(largest.answer.body.length)}; page ${kb(largest.html.length)}) against parsing the page`,
      `${(read / parse).toFixed(3)} (${read.toFixed(3)} vs ${parse.toFixed(2)} ms)`,
      '≤ 1',
      read <= parse,
    );
    file.close();
    const onDisk = bytesIn(dir);
    report.goal(
      `bytes on disk per kept answer against its stored bytes (${NEIGHBOURS.toLocaleString('en')} answers of ${all.length} kinds)`,
      `${(onDisk / storedBytes).toFixed(3)} (${Math.round(onDisk / NEIGHBOURS).toLocaleString('en')} vs ${Math.round(storedBytes / NEIGHBOURS).toLocaleString('en')} bytes)`,
      '≤ 1.25',
      onDisk / storedBytes <= 1.25,
    );

    // 100,000 answers of 1 KB: what the heap holds does not grow with their size, only (if at all) with their count.
    const heapDir = join(dir, 'heap');
    const heapFile = openAnswerFile({
      path: join(heapDir, 'answers.sqlite'),
      maxBytes: 2 ** 40,
      keepUntil: () => Date.now() + 86_400_000,
      now: Date.now,
      logger: silent,
    });
    const small = { ...all[2]!.answer, body: all[2]!.answer.body.subarray(0, 1024) };
    for (let i = 0; i < KEPT_FOR_HEAP; i++) heapFile.write(`answer-${i}`, small);
    heapFile.close();
    // Each in a process of its own, so both at once: neither heap depends on the other's work.
    const [bare, holding] = await Promise.all([heapOf('', 0), heapOf(join(heapDir, 'answers.sqlite'), KEPT_FOR_HEAP)]);
    if (holding.kept !== KEPT_FOR_HEAP || holding.found !== HEAP_READS)
      throw new Error(`the heap child kept ${holding.kept} and found ${holding.found}`);
    const grownMB = (holding.heapUsed - bare.heapUsed) / 2 ** 20;
    report.goal(
      `heap of a process holding ${KEPT_FOR_HEAP.toLocaleString('en')} kept answers (${HEAP_READS.toLocaleString('en')} read) minus one holding none`,
      `${grownMB.toFixed(1)} MB (${(holding.heapUsed / 2 ** 20).toFixed(1)} vs ${(bare.heapUsed / 2 ** 20).toFixed(1)} MB)`,
      '≤ 8 MB',
      grownMB <= 8,
    );
    report.figure(
      `kept answers file with ${KEPT_FOR_HEAP.toLocaleString('en')} answers of 1 KB`,
      `${(bytesIn(heapDir) / 2 ** 20).toFixed(0)} MB on disk`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await staleOverHttp(report);
}

/**
 * The whole site down (503), the breaker open: a kept answer served again and again, against hits
 * of the same service (an answer still within its TTL) in alternating rounds.
 */
async function staleOverHttp(report: BenchReport): Promise<void> {
  const simulator = await startSimulator();
  const service = await startService({
    ...NO_QUOTA,
    UPSTREAM_BASE_URLS: simulator.origin,
    CACHE_TTL_OVERRIDES: '/catalog/popular-series=1',
    STALE_WHILE_REVALIDATE_S: '0',
  });
  const staleUrl = `${service.origin}/catalog/popular-series`;
  const hitUrl = `${service.origin}/catalog/new-movie`;
  const [staleSize, hitSize] = [
    (await (await fetch(staleUrl)).arrayBuffer()).byteLength,
    (await (await fetch(hitUrl)).arrayBuffer()).byteLength,
  ];
  await sleep(1_100);
  simulator.setSiteDown('unavailable');
  const stale = await fetch(staleUrl);
  await stale.arrayBuffer();
  if (stale.headers.get('x-cache') !== 'STALE')
    throw new Error(`expected a stale answer, got ${stale.status} ${stale.headers.get('x-cache')}`);
  const fetchesBefore = simulator.hitCount();
  const [ours, hits] = (
    await alternatingRounds(
      [
        { url: staleUrl, pid: service.pid },
        { url: hitUrl, pid: service.pid },
      ],
      LOAD_SECONDS,
      ROUNDS,
    )
  ).map(tallyFigures) as [LoadFigures, LoadFigures];
  const ratio = ours.perSecond / hits.perSecond;
  const kb = (size: number) => `${(size / 1024).toFixed(1)} KB`;
  report.goal(
    `stale answer req/s (site down, breaker open, ${kb(staleSize)}) against hits of the same service (${kb(hitSize)}), 50 connections`,
    `${ratio.toFixed(2)} (${Math.round(ours.perSecond)} vs ${Math.round(hits.perSecond)})`,
    '≥ 0.8',
    ratio >= 0.8,
  );
  report.goal(
    'stale answer p99 minus hit p99, median round',
    `${ours.p99 - hits.p99} ms (${ours.p99} vs ${hits.p99}; p50 ${ours.p50} vs ${hits.p50}; CPU ${ours.cpuMicroseconds.toFixed(0)} vs ${hits.cpuMicroseconds.toFixed(0)} µs per answer)`,
    '≤ 5 ms',
    ours.p99 - hits.p99 <= 5,
  );
  report.figure('upstream requests while the stale answers were served', String(simulator.hitCount() - fetchesBefore));
  await Promise.all([service.stop(), simulator.close()]);
}

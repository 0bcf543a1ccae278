import { load as cheerioLoad } from 'cheerio';
import { endpoints } from '../../../src/catalog/endpoints/index.js';
import { answerPage } from '../../../src/catalog/pageAnswer.js';
import { parsePage, warmPageParser } from '../../../src/catalog/pageParser.js';
import { findSeries } from '../../simulator/episodes.js';
import type { PageContext } from '../../simulator/pages/context.js';
import { seriesPage } from '../../simulator/pages/seriesPage.js';
import { resolveRoute } from '../../simulator/router.js';
import { answerRoute } from '../../simulator/site.js';
import { VARIANTS, type VariantName } from '../../simulator/variant.js';
import {
  alternatingRatios,
  callsFromCollectedHeap,
  median,
  medianTime,
  roundsText,
  type BenchReport,
  WARM_UP_AFTER_COLLECTION_MS,
} from '../report.js';

const ORIGIN = 'http://127.0.0.1:4000';
// The real site's long series page lists 196 episodes; no series of the dataset has exactly that many.
const SERIES_196 = { ...findSeries('shadow-chronicle')!, latestEpisode: 196 };
/**
 * Alternating rounds per page: parses, then cheerio loads, then parses… Each round long enough to pay
 * for the garbage it makes: a round of one load leaves its collection to the parses after it.
 */
const ROUNDS = Number(process.env.BENCH_PARSE_ROUNDS ?? 5);
/** Parses timed per round (their median); cheerio's default load takes ten times as long, so fewer loads give as steady a median. */
const RUNS = Number(process.env.BENCH_PARSE_ROUND_RUNS ?? 20);
const REFERENCE_RUNS = Math.max(3, Math.round(RUNS / 5));
/** The same on the later snapshot's longest pages, whose every round starts from a collected heap and a warm-up. */
const COLLECTED_RUNS = 10;
const COLLECTED_REFERENCE_RUNS = 3;
/** Rounds after which a page whose every round is within half its goal stops: more would not change its verdict. */
const SETTLING_ROUNDS = 3;
/** A page kind's parse may take at most this share of cheerio's default `load` of the same page. */
const PARSE_RATIO_GOAL = 0.2;
/** The later snapshot's longest pages (a 670-episode series, its ~600 KB episode page) may take at most this share. */
const LONG_PAGE_RATIO_GOAL = 0.15;
/** Parsing on a worker thread (the bound on any page) may cost at most this much more than in the process. */
const WORKER_RATIO_GOAL = 1.5;

/** Page kind, endpoint, upstream path, parameters, and the page itself where the simulator's route does not give it. */
type Case = readonly [page: string, path: string, upstreamPath: string, input: object, render?: (ctx: PageContext) => string];

const CASES: readonly Case[] = [
  ['home', '/catalog/home', '/', { page: 1 }],
  ['search', '/catalog/search', '/?s=a', { q: 'a', page: 1 }],
  ['genres', '/catalog/genres', '/', {}],
  ['ongoing', '/catalog/ongoing-series', '/ongoing/', { page: 1 }],
  ['popular', '/catalog/popular-series', '/seri/?order=popular&page=1', { page: 1 }],
  ['new movie', '/catalog/new-movie', '/seri/?type=movie&order=update&page=1', { page: 1 }],
  [
    'series, 196 episodes',
    '/catalog/series/{slug}',
    '/seri/shadow-chronicle/',
    { slug: 'shadow-chronicle' },
    (ctx) => seriesPage(ctx, SERIES_196),
  ],
  ['series, 600 episodes', '/catalog/series/{slug}', '/seri/heaven-devouring-sovereign/', { slug: 'heaven-devouring-sovereign' }],
  [
    'episode',
    '/catalog/episode/{slug}',
    '/shadow-chronicle-episode-100-subtitle-indonesia/',
    { slug: 'shadow-chronicle-episode-100-subtitle-indonesia' },
  ],
  ['completed', '/catalog/completed-series', '/completed/', { page: 1 }],
  ['network term', '/catalog/networks/{slug}', '/network/bilibili/', { slug: 'bilibili', page: 1 }],
  ['season', '/catalog/seasons/{slug}', '/season/2024/', { slug: '2024' }],
  ['schedule', '/catalog/schedule', '/schedule/', {}],
  ['A–Z letter', '/catalog/az-list', '/az-lists/?show=S', { letter: 'S', page: 1 }],
  [
    'filter',
    '/catalog/series',
    '/seri/?status=ongoing&order=popular&page=1',
    { status: 'ongoing', type: null, order: 'popular', genre: [], season: [], studio: [], page: 1 },
  ],
];

// The same parsers on the `moe` profile's longest pages: h3 episode lists, relative links, Indonesian labels.
const MOE_CASES: readonly Case[] = [
  ['moe series, 670 episodes', '/catalog/series/{slug}', '/heaven-devouring-sovereign/', { slug: 'heaven-devouring-sovereign' }],
  [
    'moe episode, 670-entry list',
    '/catalog/episode/{slug}',
    '/heaven-devouring-sovereign-episode-670-subtitle-indonesia/',
    { slug: 'heaven-devouring-sovereign-episode-670-subtitle-indonesia' },
  ],
];

interface Page {
  name: string;
  goal: number;
  /**
   * Each round from a collected heap (callsFromCollectedHeap): the later snapshot's longest pages, whose
   * rows are held to LONG_PAGE_RATIO_GOAL. Cheerio's load of such a page grows the heap by ~10 MB, so
   * where its calls fall in the collection cycle decided its figure, and our rounds collected its
   * garbage; a card page's load leaves too little for either. The collection costs each side a
   * recompilation of its hot code per round, which is why the card pages keep plain rounds.
   */
  fromCollectedHeap: boolean;
  endpoint: (typeof endpoints)[number];
  html: string;
  url: string;
  input: Record<string, unknown>;
}

function pages(variant: VariantName, cases: readonly Case[], goal: number, fromCollectedHeap: boolean): Page[] {
  const ctx = { origin: ORIGIN, host: new URL(ORIGIN).host, variant: VARIANTS[variant] };
  return cases.map(([name, path, upstreamPath, input, render]) => {
    const url = new URL(upstreamPath, ORIGIN);
    const answer = answerRoute(ctx, resolveRoute(url, ctx.variant));
    if (!('html' in answer)) throw new Error(`${upstreamPath} did not render a page`);
    const endpoint = endpoints.find((entry) => entry.path === path)!;
    return {
      name,
      goal,
      fromCollectedHeap,
      endpoint,
      html: render === undefined ? answer.html : render(ctx),
      url: url.href,
      input: input as Record<string, unknown>,
    };
  });
}

/**
 * Each page kind's parse of a real-size simulator page (full chrome) against cheerio's default
 * `load` (parse5) of the same page, both in this process, in alternating rounds; and the parse on a
 * worker thread, as a miss runs it (from the page's bytes to the answer's bytes and ETag), against the same work in the process.
 */
export async function parseSection(report: BenchReport): Promise<void> {
  report.section(
    `parse time per page kind against cheerio's default load of the same page (up to ${ROUNDS} alternating rounds, ${SETTLING_ROUNDS} when each is within half the goal; each the median of ${RUNS} parses or ${REFERENCE_RUNS} loads; on the later snapshot's pages, each round after a full collection and ${WARM_UP_AFTER_COLLECTION_MS} ms of untimed calls, the median of ${COLLECTED_RUNS} parses or ${COLLECTED_REFERENCE_RUNS} loads)`,
  );
  const all = [...pages('cafe', CASES, PARSE_RATIO_GOAL, false), ...pages('moe', MOE_CASES, LONG_PAGE_RATIO_GOAL, true)];
  for (const page of all) {
    const parse = () => page.endpoint.parse(page.html, page.url, page.input as never);
    const load = () => cheerioLoad(page.html);
    // Warmed up before the first round, so that no round times code still being compiled.
    for (let run = 0; run < 20; run++) parse();
    for (let run = 0; run < 3; run++) load();
    const faults = { ours: [] as number[], reference: [] as number[] };
    const fromCollectedHeap = (side: keyof typeof faults, work: () => unknown, runs: number) => () => {
      const figures = callsFromCollectedHeap(work, runs);
      faults[side].push(figures.faults);
      return figures.ms;
    };
    const rounds = await alternatingRatios(
      ROUNDS,
      page.fromCollectedHeap ? fromCollectedHeap('ours', parse, COLLECTED_RUNS) : () => medianTime(parse, RUNS, 0),
      page.fromCollectedHeap ? fromCollectedHeap('reference', load, COLLECTED_REFERENCE_RUNS) : () => medianTime(load, REFERENCE_RUNS, 0),
      // Card pages parse far within the goal; a page near it gets every round.
      (ratios) => ratios.length >= SETTLING_ROUNDS && Math.max(...ratios) <= page.goal / 2,
    );
    const ratio = median(rounds.ratios);
    const kb = Math.round(Buffer.byteLength(page.html) / 1024);
    const faultsText = page.fromCollectedHeap ? `, minor page faults per call ${median(faults.ours)} vs ${median(faults.reference)}` : '';
    report.goal(
      `parse ${page.name} (${kb} KB) against cheerio load, median round`,
      `${ratio.toFixed(3)} (${median(rounds.ours).toFixed(2)} vs ${median(rounds.reference).toFixed(1)} ms${faultsText}; ${roundsText(rounds.ratios, 3)})`,
      `≤ ${page.goal}`,
      ratio <= page.goal,
    );
  }

  const longest = all.find((page) => page.name === 'series, 600 episodes')!;
  // A miss's page as it arrives: its bytes, which both sides decode. The thread's copy is made before
  // the clock starts, as a miss's bytes exist before its parse: they move to the thread, so each run needs its own.
  const fetched = { body: Buffer.from(longest.html), url: longest.url, servedBy: ORIGIN, siteOrigins: [ORIGIN], fetchedAt: Date.now() };
  await warmPageParser();
  const inWorker = async () => {
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const page = { ...fetched, body: Buffer.from(fetched.body) };
      const started = performance.now();
      await parsePage(longest.endpoint, page, longest.input);
      times.push(performance.now() - started);
    }
    return median(times);
  };
  const answerInProcess = () => answerPage({ endpointPath: longest.endpoint.path, page: fetched, input: longest.input });
  const inProcess = () => medianTime(answerInProcess, RUNS, 0);
  await inWorker();
  for (let run = 0; run < 20; run++) answerInProcess();
  const rounds = await alternatingRatios(ROUNDS, inWorker, inProcess);
  const workerRatio = median(rounds.ratios);
  report.goal(
    "a miss's answer to the 600-episode page's bytes on a worker thread (decode, parse, answer's JSON bytes and ETag, round trip) against the same in the process, median round",
    `${workerRatio.toFixed(2)} (${median(rounds.ours).toFixed(2)} vs ${median(rounds.reference).toFixed(2)} ms; ${roundsText(rounds.ratios, 2)})`,
    `≤ ${WORKER_RATIO_GOAL}`,
    workerRatio <= WORKER_RATIO_GOAL,
  );
}

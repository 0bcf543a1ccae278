import autocannon from 'autocannon';
import { startSimulator } from '../../simulator/server.js';
import { emptyTally, loadRound, tallyFigures, type LoadFigures } from '../loadRounds.js';
import { sentAnswer, startBareServer, startService } from '../processes.js';
import type { BenchReport } from '../report.js';
import { LATENCY_MS, NO_QUOTA, WARM_UP_SECONDS } from './settings.js';

// A cached feed (Atom, the home page's latest releases) against a bare node:http server sending the
// same bytes, and the cached catalog answer the feed is built from, in alternating rounds.
const FEED_PATH = '/feeds/latest.atom';
const CATALOG_PATH = '/catalog/home';
const ROUNDS = 3;
/**
 * Load per server in all of its rounds: the feed's goal (half the bare server's rate) is far from
 * where its ratio reads, and a round of 1 s is still thousands of answers.
 */
const FEED_SECONDS = 3;

interface FeedHitFigures {
  feed: LoadFigures;
  bare: LoadFigures;
  catalog: LoadFigures;
  feedKb: number;
}

async function measureFeedHits(latencyMs: number, seconds: number, env: Record<string, string>): Promise<FeedHitFigures> {
  const simulator = await startSimulator({ latencyMs });
  const service = await startService({ ...env, UPSTREAM_BASE_URLS: simulator.origin });
  const feedUrl = service.origin + FEED_PATH;
  const catalogUrl = service.origin + CATALOG_PATH;
  const answer = await sentAnswer(feedUrl);
  const bare = await startBareServer(answer);
  try {
    for (const url of [feedUrl, catalogUrl, bare.origin]) await autocannon({ url, connections: 50, duration: WARM_UP_SECONDS });
    const feed = emptyTally();
    const catalog = emptyTally();
    const baseline = emptyTally();
    const roundSeconds = seconds / ROUNDS;
    for (let index = 0; index < ROUNDS; index++) {
      await loadRound(feed, feedUrl, roundSeconds, service.pid);
      await loadRound(baseline, bare.origin, roundSeconds, bare.pid);
      await loadRound(catalog, catalogUrl, roundSeconds, service.pid);
    }
    return {
      feed: tallyFigures(feed),
      bare: tallyFigures(baseline),
      catalog: tallyFigures(catalog),
      feedKb: Math.round(answer.body.length / 102.4) / 10,
    };
  } finally {
    await Promise.all([service.stop(), bare.stop(), simulator.close()]);
  }
}

/** A cached feed against a bare node:http server sending the same bytes, and the catalog hit it is built from. */
export async function feedSection(report: BenchReport): Promise<void> {
  report.section(
    'a cached feed (/feeds/latest.atom) against a bare node:http server sending the same bytes, and the /catalog/home hit it is built from',
  );
  const { feed, bare, catalog, feedKb } = await measureFeedHits(LATENCY_MS, FEED_SECONDS, NO_QUOTA);
  const shown = (hits: LoadFigures) =>
    `${Math.round(hits.perSecond)} req/s, p50 ${hits.p50} / p99 ${hits.p99} ms, ${Math.round(hits.cpuMicroseconds)} µs CPU`;
  const ratio = feed.perSecond / bare.perSecond;
  report.goal(
    `feed hit req/s against bare, ${feedKb} KB Atom, 50 connections`,
    `${ratio.toFixed(2)} (${shown(feed)}; bare ${shown(bare)})`,
    'ratio ≥ 0.5',
    ratio >= 0.5,
  );
  report.figure('catalog hit of the same answer (/catalog/home)', shown(catalog));
}

import autocannon from 'autocannon';
import { startSimulator } from '../simulator/server.js';
import { median } from './parse.js';
import { cpuMs, startBareServer, startService } from './processes.js';

// A cached feed (Atom, the home page's latest releases) against a bare node:http server sending the
// same bytes, and the cached catalog answer the feed is built from, in alternating rounds.
const FEED_PATH = '/feeds/latest.atom';
const CATALOG_PATH = '/catalog/home';
const ROUNDS = 4;

export interface HitFigures {
  perSecond: number;
  /** Median of the rounds' p50 and p99, ms. */
  p50: number;
  p99: number;
  /** Server CPU per answer, µs. */
  cpuMicroseconds: number;
}

export interface FeedHitFigures {
  feed: HitFigures;
  bare: HitFigures;
  catalog: HitFigures;
  feedKb: number;
}

interface Tally {
  requests: number;
  seconds: number;
  cpuMs: number;
  p50: number[];
  p99: number[];
}

async function round(tally: Tally, url: string, seconds: number, pid: number): Promise<void> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({ url, connections: 50, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  tally.requests += result.requests.total;
  tally.seconds += result.duration;
  tally.cpuMs += cpuMs(pid) - cpuBefore;
  tally.p50.push(result.latency.p50);
  tally.p99.push(result.latency.p99);
}

const figures = (tally: Tally): HitFigures => ({
  perSecond: Math.round(tally.requests / tally.seconds),
  p50: median(tally.p50),
  p99: median(tally.p99),
  cpuMicroseconds: Math.round((tally.cpuMs * 1000) / tally.requests),
});

const emptyTally = (): Tally => ({ requests: 0, seconds: 0, cpuMs: 0, p50: [], p99: [] });

export async function measureFeedHits(latencyMs: number, seconds: number, env: Record<string, string>): Promise<FeedHitFigures> {
  const simulator = await startSimulator({ latencyMs });
  const service = await startService({ ...env, UPSTREAM_BASE_URLS: simulator.origin });
  const feedUrl = service.origin + FEED_PATH;
  const catalogUrl = service.origin + CATALOG_PATH;
  const body = Buffer.from(await (await fetch(feedUrl)).arrayBuffer());
  const bare = await startBareServer(body);
  try {
    for (const url of [feedUrl, catalogUrl, bare.origin]) await autocannon({ url, connections: 50, duration: 2 });
    const feed = emptyTally();
    const catalog = emptyTally();
    const baseline = emptyTally();
    const roundSeconds = seconds / ROUNDS;
    for (let index = 0; index < ROUNDS; index++) {
      await round(feed, feedUrl, roundSeconds, service.pid);
      await round(baseline, bare.origin, roundSeconds, bare.pid);
      await round(catalog, catalogUrl, roundSeconds, service.pid);
    }
    return { feed: figures(feed), bare: figures(baseline), catalog: figures(catalog), feedKb: Math.round(body.length / 102.4) / 10 };
  } finally {
    await Promise.all([service.stop(), bare.stop(), simulator.close()]);
  }
}

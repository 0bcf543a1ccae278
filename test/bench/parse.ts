import { endpoints } from '../../src/catalog/endpoints/index.js';
import { findSeries } from '../simulator/episodes.js';
import type { PageContext } from '../simulator/pages/context.js';
import { seriesPage } from '../simulator/pages/seriesPage.js';
import { resolveRoute } from '../simulator/router.js';
import { answerRoute } from '../simulator/site.js';
import { VARIANTS } from '../simulator/variant.js';

const ORIGIN = 'http://127.0.0.1:4000';
// The real site's long series page lists 196 episodes; no series of the dataset has exactly that many.
const SERIES_196 = { ...findSeries('shadow-chronicle')!, latestEpisode: 196 };

/** Page kind, endpoint, upstream path, parameters, and the page itself where the simulator's route does not give it. */
type Case = readonly [page: string, path: string, upstreamPath: string, input: object, render?: (ctx: PageContext) => string];

const CASES: readonly Case[] = [
  ['home', '/catalog/home', '/', { page: 1 }],
  ['search', '/catalog/search', '/?s=a', { q: 'a', page: 1 }],
  ['genres', '/catalog/genres', '/', {}],
  ['ongoing', '/catalog/ongoing-series', '/ongoing/', { page: 1 }],
  ['popular', '/catalog/popular-series', '/seri/?order=popular&page=1', { page: 1 }],
  ['new movie', '/catalog/new-movie', '/seri/?type=movie&order=update&page=1', { page: 1 }],
  ['series, 196 episodes', '/catalog/series/{slug}', '/seri/shadow-chronicle/', { slug: 'shadow-chronicle' }, (ctx) => seriesPage(ctx, SERIES_196)],
  ['series, 600 episodes', '/catalog/series/{slug}', '/seri/heaven-devouring-sovereign/', { slug: 'heaven-devouring-sovereign' }],
  ['episode', '/catalog/episode/{slug}', '/shadow-chronicle-episode-100-subtitle-indonesia/', { slug: 'shadow-chronicle-episode-100-subtitle-indonesia' }],
  ['completed', '/catalog/completed-series', '/completed/', { page: 1 }],
  ['network term', '/catalog/networks/{slug}', '/network/bilibili/', { slug: 'bilibili', page: 1 }],
  ['season', '/catalog/seasons/{slug}', '/season/2024/', { slug: '2024' }],
  ['schedule', '/catalog/schedule', '/schedule/', {}],
  ['A–Z letter', '/catalog/az-list', '/az-lists/?show=S', { letter: 'S', page: 1 }],
  ['filter', '/catalog/series', '/seri/?status=ongoing&order=popular&page=1', { status: 'ongoing', type: null, order: 'popular', genre: [], season: [], studio: [], page: 1 }],
];

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** Median parse time per page kind over `runs` parses of a real-size simulator page (full chrome). */
export function measureParsing(runs = 200): Array<{ page: string; kb: number; medianMs: number }> {
  const ctx = { origin: ORIGIN, host: new URL(ORIGIN).host, variant: VARIANTS.cafe };
  return CASES.map(([page, path, upstreamPath, query, render]) => {
    const url = new URL(upstreamPath, ORIGIN);
    const answer = answerRoute(ctx, resolveRoute(url));
    if (!('html' in answer)) throw new Error(`${upstreamPath} did not render a page`);
    const html = render === undefined ? answer.html : render(ctx);
    const endpoint = endpoints.find((entry) => entry.path === path)!;
    const times: number[] = [];
    for (let run = 0; run < runs + 20; run++) {
      const started = performance.now();
      endpoint.parse(html, url.href, query as never);
      if (run >= 20) times.push(performance.now() - started);
    }
    return { page, kb: Math.round(Buffer.byteLength(html) / 1024), medianMs: median(times) };
  });
}

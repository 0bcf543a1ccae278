import { z } from 'zod';
import { NoQuery, slugParam, upstreamSlug } from '../../contract/params.js';
import { Episode, SeriesDetail } from '../../contract/series.js';
import { parseEpisodePage } from '../../parsers/episodePage.js';
import { parseSeriesPage } from '../../parsers/seriesPage.js';
import { endpoint, HOUR, MINUTE } from './types.js';

/**
 * The site's URL of a finished series' last episode: `…-episode-52-subtitle-indonesia` is posted as
 * `…-episode-52-tamat-subtitle-indonesia`. Null when the slug names no episode number or is already one.
 * @internal exported for the tests: its unit test feeds it slugs no simulated page has.
 */
export function finaleSlug(slug: string): string | null {
  if (/(?:^|-)tamat(?:-|$)/.test(slug)) return null;
  const match = /^(.+-episode-\d+)(-.+)?$/.exec(slug);
  return match ? `${match[1]}-tamat${match[2] ?? ''}` : null;
}

/** A series and its episodes: where a client goes after finding a series in a list. */
export const seriesEndpoints = [
  endpoint({
    path: '/catalog/series/{slug}',
    summary: 'One series: its details, episode list and batch downloads',
    description:
      "The upstream series page, under the site's series path (learned from the site, shown on /health/upstream): titles, poster and banner, the synopsis, status, type, rating, networks, studios, season, country, dates, genres and tags, every other info row, the first and latest episode, all episodes (newest first) and the batch downloads.",
    params: z.object({ slug: slugParam('slug', 'series') }),
    query: NoQuery,
    data: SeriesDetail,
    paginated: false,
    ttlSeconds: 10 * MINUTE,
    sitePath: 'series',
    upstreamPath: ({ slug }, { seriesPath }) => `${seriesPath}${upstreamSlug(slug)}/`,
    parse: (html, pageUrl) => parseSeriesPage(html, pageUrl),
  }),
  endpoint({
    path: '/catalog/episode/{slug}',
    summary: 'One episode: its video servers, downloads and navigation',
    description:
      "The upstream episode page: every video server with its embed URL, the downloads by quality and host, previous / next / all episodes, and the series' episode list. A finished series' last episode is found under its `-tamat-` URL too.",
    params: z.object({ slug: slugParam('slug', 'episode') }),
    query: NoQuery,
    data: Episode,
    paginated: false,
    ttlSeconds: HOUR,
    upstreamPath: ({ slug }) => `/${upstreamSlug(slug)}/`,
    fallbackPath: ({ slug }) => {
      const finale = finaleSlug(slug);
      return finale === null ? null : `/${upstreamSlug(finale)}/`;
    },
    parse: (html, pageUrl) => parseEpisodePage(html, pageUrl),
  }),
] as const;

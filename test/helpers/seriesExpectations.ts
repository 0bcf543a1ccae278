import type { Episode, SeriesDetail } from '../../src/contract/series.js';
import type { EpisodeItem } from '../simulator/catalog.js';
import { lastModified, type Series, type Term } from '../simulator/dataset.js';
import {
  batchesOf,
  downloadsOf,
  episodeSlug,
  episodesOf,
  longDate,
  seriesInfo,
  serversOf,
  shortDate,
  siteDate,
  siteDatetime,
  type EpisodeLookup,
} from '../simulator/episodes.js';
import { seriesUrl, type PageContext } from '../simulator/pages/context.js';
import { serverPageUrl } from '../simulator/pages/episodePage.js';
import { imageStyleAt, posterUrl } from '../simulator/pages/images.js';
import { seriesPosterIndex, synopsisParagraphs } from '../simulator/pages/seriesPage.js';

// What the simulated series and episode pages show, computed from the simulator's data (never from
// our parsers): the parser unit tests and the integration tests compare against these.

/** What the simulated series page shows, computed from the simulator's data, not from our parser. */
export function expectedSeries(ctx: PageContext, series: Series): SeriesDetail {
  const info = seriesInfo(series);
  const episodes = episodesOf(series);
  const term = (base: string) => (item: Term) => ({ name: item.name, slug: item.slug, url: `${ctx.origin}${base}${item.slug}/` });
  const ref = (item: EpisodeItem | undefined) =>
    item === undefined ? null : { episode: item.episode, slug: episodeSlug(item), url: `${ctx.origin}${item.path}` };
  const index = seriesPosterIndex(series);
  return {
    title: series.title,
    slug: series.slug,
    url: seriesUrl(ctx, series),
    alternativeTitle: series.altTitles.length > 0 ? series.altTitles.join(', ') : null,
    poster: posterUrl(ctx, series.poster, imageStyleAt(ctx, index), index),
    banner: series.banner === null ? null : `${ctx.origin}${series.banner}`,
    synopsis: synopsisParagraphs(series).join('\n\n'),
    status: series.status,
    type: series.type,
    rating: series.rating,
    trailer: info.trailer,
    followers: info.followers,
    networks: info.networks.map(term('/network/')),
    studios: info.studios.map(term('/studio/')),
    season: info.season === null ? null : term('/season/')(info.season),
    country: term('/country/')(info.country),
    released: shortDate(info.released),
    releaseDate: info.released,
    duration: info.duration,
    episodeCount: info.declaredEpisodes,
    publishedAt: siteDatetime(info.publishedAt),
    updatedAt: siteDatetime(lastModified(series)),
    genres: series.genres.map(term('/genres/')),
    tags: info.tags.map(term('/tag/')),
    otherInfo: ctx.variant.extraInfoRows.map(([label, value]) => ({ label, value })),
    firstEpisode: ref(episodes.at(-1)),
    latestEpisode: ref(episodes[0]),
    episodes: episodes.map((item) => ({
      episode: item.episode,
      title: item.title,
      slug: episodeSlug(item),
      url: `${ctx.origin}${item.path}`,
      sub: series.sub,
      releaseDate: siteDate(item.publishedAt),
      releaseDateText: longDate(siteDate(item.publishedAt)),
    })),
    batches: batchesOf(series),
  };
}

/**
 * The video servers: protocol-relative sources take the page's scheme. Where the options link to the
 * site's server pages, the embed shown by default is not among them and comes first as `Default`.
 */
function expectedServers(ctx: PageContext, item: EpisodeItem): Episode['servers'] {
  const servers = serversOf(item);
  if (ctx.variant.serverOptions === 'base64') return servers.map(({ name, src }) => ({ name, url: new URL(src, ctx.origin).href }));
  const shown = { name: 'Default', url: new URL(servers[0]?.src ?? '', ctx.origin).href };
  return [shown, ...servers.map(({ name }, index) => ({ name, url: serverPageUrl(ctx, item, index + 1) }))];
}

/** What the simulated episode page shows, computed from the simulator's data. */
export function expectedEpisode(ctx: PageContext, { item, list, index }: EpisodeLookup): Episode {
  const { series } = item;
  const link = (other: EpisodeItem | undefined) =>
    other === undefined ? null : { slug: episodeSlug(other), url: `${ctx.origin}${other.path}` };
  return {
    title: item.title,
    slug: episodeSlug(item),
    url: `${ctx.origin}${item.path}`,
    episode: item.episode,
    series: { title: series.title, slug: series.slug, url: seriesUrl(ctx, series) },
    poster: posterUrl(ctx, series.poster, imageStyleAt(ctx, 0), 0),
    type: series.type,
    sub: series.sub,
    releaseDate: siteDate(item.publishedAt),
    releaseDateText: longDate(siteDate(item.publishedAt)),
    servers: expectedServers(ctx, item),
    downloads: downloadsOf(item),
    navigation: { previous: link(list[index + 1]), next: link(list[index - 1]), allEpisodes: seriesUrl(ctx, series) },
    episodes: list.map((other, position) => ({
      episode: other.episode,
      title: other.title,
      slug: episodeSlug(other),
      url: `${ctx.origin}${other.path}`,
      poster: posterUrl(ctx, series.poster, imageStyleAt(ctx, position), position),
      releaseDateText: longDate(siteDate(other.publishedAt)),
    })),
  };
}

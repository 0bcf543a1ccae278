import { episodePath, episodeTitle, padEpisode, type EpisodeItem } from './catalog.js';
import { SEASONS, STUDIOS, type Series, type Term } from './dataset.js';
import { DEFAULT_CATALOG, type LiveCatalog } from './liveCatalog.js';
import { createRandom } from './random.js';

/**
 * What a series page and an episode page show beyond the dataset: the info rows, every episode,
 * the video servers and the downloads. All of it derives from the series' post id, so tests get
 * the same values the pages render, on every run.
 */

export interface SeriesInfo {
  /** Empty on some series: the Network row comes and goes. */
  readonly networks: readonly Term[];
  readonly studios: readonly Term[];
  /** null: no Season row. */
  readonly season: Term | null;
  readonly country: Term;
  /** ISO date of the first airing. */
  readonly released: string;
  readonly duration: string;
  /** null: no trailer button. */
  readonly trailer: string | null;
  readonly followers: number;
  readonly tags: readonly Term[];
  /** The declared count of the "Episodes" row; null: no such row. It need not match the list. */
  readonly declaredEpisodes: number | null;
  /** ISO datetime of the series post. */
  readonly publishedAt: string;
}

export interface VideoServer {
  readonly name: string;
  /** The iframe src as the option carries it, protocol-relative for some hosts. */
  readonly src: string;
}

/** Mutable arrays, so that tests can use it as the contract's shape as it is. */
export interface DownloadGroup {
  title: string;
  qualities: { quality: string; links: { host: string; url: string }[] }[];
}

export interface EpisodeLookup {
  readonly item: EpisodeItem;
  /** Every episode of its series, newest first (the order both pages list them in). */
  readonly list: readonly EpisodeItem[];
  readonly index: number;
}

const WEEK_MS = 7 * 86_400_000;
/** Above this many episodes an ongoing series declares only its current season's count. */
const SEASON_LENGTH = 52;
const NETWORKS: readonly Term[] = [
  { name: 'Tencent Video', slug: 'tencent-video' },
  { name: 'Bilibili', slug: 'bilibili' },
  { name: 'iQIYI', slug: 'iqiyi' },
  { name: 'Youku', slug: 'youku' },
];
const CHINA: Term = { name: 'China', slug: 'china' };
const TAG_WORDS = ['donghua sub indo', 'nonton donghua', 'streaming donghua', 'download donghua'];

export function seriesInfo(series: Series): SeriesInfo {
  const random = createRandom(series.id);
  const networkCount = random.int(0, 2);
  const start = random.int(0, NETWORKS.length - 1);
  const released = Date.parse(series.updatedAt) - Math.max(1, series.latestEpisode ?? 1) * WEEK_MS;
  return {
    networks: Array.from({ length: networkCount }, (_, offset) => NETWORKS[(start + offset) % NETWORKS.length] as Term),
    studios: [random.pick(STUDIOS)],
    season: random.chance(0.7) ? random.pick(SEASONS) : null,
    country: CHINA,
    released: new Date(released).toISOString().slice(0, 10),
    duration: series.type === 'Movie' ? `${random.int(80, 130)} min.` : `${random.int(7, 24)} min. per ep.`,
    trailer: random.chance(0.5) ? `https://www.youtube.com/watch?v=${series.slug.slice(0, 6)}${series.id}` : null,
    followers: random.int(10, 20_000),
    tags: TAG_WORDS.slice(0, random.int(1, 3)).map((word) => ({
      name: `${series.title} ${word}`,
      slug: `${series.slug}-${word.replace(/ /g, '-')}`,
    })),
    declaredEpisodes: declaredEpisodes(series),
    publishedAt: new Date(released - 86_400_000).toISOString(),
  };
}

function declaredEpisodes(series: Series): number | null {
  if (series.type === 'Movie') return 1;
  if (series.latestEpisode === null) return null;
  if (series.status === 'Ongoing') return series.latestEpisode > SEASON_LENGTH ? SEASON_LENGTH : null;
  return series.latestEpisode;
}

/** Every episode of a series, newest first: one a week up to the latest; a movie is one post; nothing before it airs. */
export function episodesOf(series: Series): EpisodeItem[] {
  if (series.status === 'Upcoming') return [];
  const updated = Date.parse(series.updatedAt);
  const item = (episode: number | null, publishedMs: number): EpisodeItem => ({
    series,
    episode,
    path: episodePath(series, episode),
    title: episodeTitle(series, episode),
    publishedAt: new Date(publishedMs).toISOString(),
  });
  if (series.latestEpisode === null) return [item(null, updated)];
  const latest = series.latestEpisode;
  return Array.from({ length: latest }, (_, back) => item(latest - back, updated - back * WEEK_MS));
}

export function episodeSlug(item: EpisodeItem): string {
  return item.path.split('/').filter(Boolean).at(-1) ?? '';
}

const EPISODE_SLUG = /^(.+)-episode-(\d{2,})(?:-tamat)?-subtitle-indonesia$/;
const MOVIE_SLUG = /^(.+)-subtitle-indonesia$/;

/**
 * The episode posted under `slug`, or null (the site's 404). The slug names its series and number,
 * so one series' list is built per lookup, not an index of every episode of the catalog.
 */
export function findEpisode(slug: string, catalog: LiveCatalog = DEFAULT_CATALOG): EpisodeLookup | null {
  const numbered = EPISODE_SLUG.exec(slug);
  const [, seriesSlug = ''] = numbered ?? MOVIE_SLUG.exec(slug) ?? [];
  const series = catalog.find(seriesSlug);
  if (series === null) return null;
  const list = episodesOf(series);
  const latest = series.latestEpisode;
  const index = numbered === null || latest === null ? 0 : latest - Number(numbered[2]);
  const item = list[index];
  // Only the exact slug the site posted exists (`-tamat-` on the finale only, two-digit padding).
  return item !== undefined && episodeSlug(item) === slug ? { item, list, index } : null;
}

export function findSeries(slug: string, catalog: LiveCatalog = DEFAULT_CATALOG): Series | null {
  return catalog.find(slug);
}

function embedId(item: EpisodeItem, salt: number): string {
  return ((item.series.id * 1_000 + (item.episode ?? 0)) * 7919 + salt).toString(36);
}

/** The drop-down's servers. OK.ru's src is protocol-relative (`//ok.ru/…`), as on the real site. */
export function serversOf(item: EpisodeItem): VideoServer[] {
  return [
    { name: 'Premium', src: `https://anichin.stream/?id=${embedId(item, 1)}` },
    { name: 'OK.ru', src: `//ok.ru/videoembed/${embedId(item, 2)}` },
    { name: 'Dailymotion [Ads]', src: `https://geo.dailymotion.com/player.html?video=x${embedId(item, 3)}` },
    { name: 'Rumble [Ads]', src: `https://rumble.com/embed/v${embedId(item, 4)}/?pub=4` },
  ];
}

const EPISODE_QUALITIES = ['360p', '480p', '720p', '1080p'];
const EPISODE_HOSTS = ['Mediafire', 'Pixeldrain', 'Terabox'];

/** One download block per episode: every quality on every host. */
export function downloadsOf(item: EpisodeItem): DownloadGroup[] {
  const file = episodeSlug(item);
  return [
    {
      title: item.title,
      qualities: EPISODE_QUALITIES.map((quality) => ({
        quality,
        links: EPISODE_HOSTS.map((host) => ({ host, url: `https://files.${host.toLowerCase()}.example/${file}-${quality}.mp4` })),
      })),
    },
  ];
}

const BATCH_SIZE = 50;

/** Batch downloads, 50 episodes a block: only for finished series (ongoing ones and movies have none). */
export function batchesOf(series: Series): DownloadGroup[] {
  if (series.status !== 'Completed' || series.latestEpisode === null) return [];
  const groups: DownloadGroup[] = [];
  for (let first = 1; first <= series.latestEpisode; first += BATCH_SIZE) {
    const last = Math.min(series.latestEpisode, first + BATCH_SIZE - 1);
    const name = `${series.slug}-batch-${padEpisode(first)}-${padEpisode(last)}`;
    groups.push({
      title: `${series.title} Batch Episode ${first} - ${last} Subtitle Indonesia`,
      qualities: ['480p', '720p', '1080p'].map((quality) => ({
        quality,
        links: [
          { host: 'Mediafire', url: `https://files.mediafire.example/${name}-${quality}.zip` },
          { host: 'Google Drive', url: `https://drive.google.example/file/d/${name}-${quality}/view` },
        ],
      })),
    });
  }
  return groups;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const SHORT_MONTHS = MONTHS.map((month) => month.slice(0, 3));
const SITE_OFFSET_MS = 7 * 3_600_000;

/** The site's local (WIB, UTC+7) calendar date of an instant, ISO. */
export function siteDate(iso: string): string {
  return new Date(Date.parse(iso) + SITE_OFFSET_MS).toISOString().slice(0, 10);
}

/** "April 25, 2026": the episode list's date format (`F j, Y`). */
export function longDate(isoDay: string): string {
  const [year, month, day] = isoDay.split('-').map(Number);
  return `${MONTHS[(month ?? 1) - 1]} ${day}, ${year}`;
}

/** "Jul 31, 2022": the Released row's format (`M j, Y`). */
export function shortDate(isoDay: string): string {
  const [year, month, day] = isoDay.split('-').map(Number);
  return `${SHORT_MONTHS[(month ?? 1) - 1]} ${day}, ${year}`;
}

/** An ISO datetime in the site's time zone, as `time[datetime]` prints it: `2026-04-25T10:00:00+07:00`. */
export function siteDatetime(iso: string): string {
  return `${new Date(Date.parse(iso) + SITE_OFFSET_MS).toISOString().slice(0, 19)}+07:00`;
}

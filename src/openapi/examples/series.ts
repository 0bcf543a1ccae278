import type { Episode, SeriesDetail } from '../../contract/series.js';
import { meta, ORIGIN, renegadeImmortal, type EndpointExample } from './shared.js';

const episodeUrl = (episode: string) => `${ORIGIN}/renegade-immortal-episode-${episode}-subtitle-indonesia/`;
const episodeSlug = (episode: string) => `renegade-immortal-episode-${episode}-subtitle-indonesia`;

const series: EndpointExample<typeof SeriesDetail> = {
  parameters: { slug: renegadeImmortal.slug },
  response: {
    status: 'success',
    data: {
      title: renegadeImmortal.title,
      slug: renegadeImmortal.slug,
      url: renegadeImmortal.url,
      alternativeTitle: 'Xian Ni, 仙逆',
      poster: renegadeImmortal.poster,
      banner: `${ORIGIN}/wp-content/uploads/2025/04/Renegade-Immortal-banner.webp`,
      synopsis:
        'Wang Lin, a boy of modest talent, sets out on the path of the immortals.\n\nHis family is slaughtered, and he swears revenge.',
      status: 'Ongoing',
      type: 'Donghua',
      rating: 9.2,
      trailer: 'https://www.youtube.com/watch?v=Xn1Lm0sA2bQ',
      followers: 7814,
      networks: [{ name: 'Tencent Video', slug: 'tencent-video', url: `${ORIGIN}/network/tencent-video/` }],
      studios: [{ name: 'Shenman Culture', slug: 'shenman-culture', url: `${ORIGIN}/studio/shenman-culture/` }],
      season: { name: 'Fall 2023', slug: 'fall-2023', url: `${ORIGIN}/season/fall-2023/` },
      country: { name: 'China', slug: 'china', url: `${ORIGIN}/country/china/` },
      released: 'Sep 25, 2023',
      releaseDate: '2023-09-25',
      duration: '20 min. per ep.',
      episodeCount: 52,
      publishedAt: '2023-09-25T19:12:40+07:00',
      updatedAt: '2026-04-25T10:03:11+07:00',
      genres: [{ name: 'Action', slug: 'action', url: `${ORIGIN}/genres/action/` }],
      tags: [{ name: 'Xian Ni', slug: 'xian-ni', url: `${ORIGIN}/tag/xian-ni/` }],
      otherInfo: [{ label: 'Director', value: 'Wang Zhong' }],
      firstEpisode: { episode: 1, slug: episodeSlug('01'), url: episodeUrl('01') },
      latestEpisode: { episode: 124, slug: episodeSlug('124'), url: episodeUrl('124') },
      episodes: [
        {
          episode: 124,
          title: 'Renegade Immortal Episode 124 Subtitle Indonesia',
          slug: episodeSlug('124'),
          url: episodeUrl('124'),
          sub: 'Sub',
          releaseDate: '2026-04-25',
          releaseDateText: 'April 25, 2026',
        },
      ],
      batches: [],
    },
    pagination: null,
    meta: meta('/seri/renegade-immortal/'),
  },
};

const episode: EndpointExample<typeof Episode> = {
  parameters: { slug: episodeSlug('124') },
  response: {
    status: 'success',
    data: {
      title: 'Renegade Immortal Episode 124 Subtitle Indonesia',
      slug: episodeSlug('124'),
      url: episodeUrl('124'),
      episode: 124,
      series: { title: renegadeImmortal.title, slug: renegadeImmortal.slug, url: renegadeImmortal.url },
      poster: renegadeImmortal.poster,
      type: 'Donghua',
      sub: 'Sub',
      releaseDate: '2026-04-25',
      releaseDateText: 'April 25, 2026',
      servers: [
        { name: 'Premium', url: 'https://anichin.stream/?id=Xk29sd0' },
        { name: 'OK.ru', url: 'https://ok.ru/videoembed/7391028364' },
      ],
      downloads: [
        {
          title: 'Renegade Immortal Episode 124 Subtitle Indonesia',
          qualities: [{ quality: '720p', links: [{ host: 'Mediafire', url: 'https://www.mediafire.com/file/ri124-720p.mp4' }] }],
        },
      ],
      navigation: {
        previous: { slug: episodeSlug('123'), url: episodeUrl('123') },
        next: null,
        allEpisodes: renegadeImmortal.url,
      },
      episodes: [
        {
          episode: 124,
          title: 'Renegade Immortal Episode 124 Subtitle Indonesia',
          slug: episodeSlug('124'),
          url: episodeUrl('124'),
          poster: renegadeImmortal.poster,
          releaseDateText: 'April 25, 2026',
        },
      ],
    },
    pagination: null,
    meta: meta(`/${episodeSlug('124')}/`),
  },
};

/** The examples of the series and episode endpoints, by path. */
export const seriesExamples: Record<string, EndpointExample> = {
  '/catalog/series/{slug}': series,
  '/catalog/episode/{slug}': episode,
};

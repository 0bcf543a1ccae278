import type { GenresData, HomeData, NewMovieData, OngoingSeriesData, PopularSeriesData, SearchData } from '../../contract/schemas.js';
import { firstOfMany, meta, movieCard, ORIGIN, renegadeImmortal, soulLand, type EndpointExample } from './shared.js';

const home: EndpointExample<typeof HomeData> = {
  parameters: {},
  response: {
    status: 'success',
    data: {
      slider: [
        {
          title: renegadeImmortal.title,
          slug: renegadeImmortal.slug,
          url: renegadeImmortal.url,
          banner: `${ORIGIN}/wp-content/uploads/2025/04/Renegade-Immortal-banner.webp`,
          synopsis: 'Wang Lin, a boy of modest talent, sets out on the path of the immortals.',
        },
      ],
      popularToday: [
        {
          seriesTitle: renegadeImmortal.title,
          episodeTitle: 'Renegade Immortal Episode 124 Subtitle Indonesia',
          episode: 124,
          slug: 'renegade-immortal-episode-124-subtitle-indonesia',
          url: `${ORIGIN}/renegade-immortal-episode-124-subtitle-indonesia/`,
          poster: renegadeImmortal.poster,
          type: 'Donghua',
          sub: 'Sub',
        },
      ],
      latestRelease: [
        {
          seriesTitle: soulLand.title,
          episodeTitle: 'Soul Land 2 Episode 120 Subtitle Indonesia',
          episode: 120,
          slug: 'soul-land-2-episode-120-subtitle-indonesia',
          url: `${ORIGIN}/soul-land-2-episode-120-subtitle-indonesia/`,
          poster: soulLand.poster,
          type: 'Donghua',
          sub: 'Sub',
        },
      ],
      recommendations: [{ genre: 'Action', items: [renegadeImmortal] }],
    },
    pagination: firstOfMany(2),
    meta: meta('/'),
  },
};

const search: EndpointExample<typeof SearchData> = {
  parameters: { q: 'soul' },
  response: {
    status: 'success',
    data: { query: 'soul', results: [soulLand] },
    pagination: { ...firstOfMany(null), totalPages: 1 },
    meta: meta('/?s=soul'),
  },
};

const genres: EndpointExample<typeof GenresData> = {
  parameters: {},
  response: {
    status: 'success',
    data: {
      genres: [
        { name: 'Action', slug: 'action', url: `${ORIGIN}/genres/action/` },
        { name: 'Cultivation', slug: 'cultivation', url: `${ORIGIN}/genres/cultivation/` },
      ],
    },
    pagination: null,
    meta: meta('/'),
  },
};

const ongoingSeries: EndpointExample<typeof OngoingSeriesData> = {
  parameters: { page: '2' },
  response: {
    status: 'success',
    data: { series: [renegadeImmortal] },
    pagination: { currentPage: 2, hasPrevPage: true, prevPage: 1, hasNextPage: true, nextPage: 3, totalPages: 6 },
    meta: meta('/ongoing/page/2/'),
  },
};

const popularSeries: EndpointExample<typeof PopularSeriesData> = {
  parameters: {},
  response: {
    status: 'success',
    data: {
      series: [soulLand],
      ranking: {
        weekly: [
          {
            rank: 1,
            title: renegadeImmortal.title,
            slug: renegadeImmortal.slug,
            url: renegadeImmortal.url,
            poster: renegadeImmortal.poster,
            genres: [{ name: 'Action', slug: 'action' }],
            rating: 9.2,
          },
        ],
        monthly: [],
        allTime: [],
      },
    },
    pagination: firstOfMany(2),
    meta: meta('/seri/?order=popular&page=1'),
  },
};

const newMovie: EndpointExample<typeof NewMovieData> = {
  parameters: {},
  response: {
    status: 'success',
    data: {
      movies: [movieCard],
      latest: [
        {
          title: movieCard.title,
          slug: movieCard.slug,
          url: movieCard.url,
          poster: movieCard.poster,
          genres: [{ name: 'Fantasy', slug: 'fantasy' }],
          releaseDate: '2026-10-18',
          releaseDateText: 'Oct 18, 2026',
        },
      ],
    },
    pagination: firstOfMany(2),
    meta: meta('/seri/?type=movie&order=update&page=1'),
  },
};

/** The examples of the first six endpoints, by path. */
export const listExamples: Record<string, EndpointExample> = {
  '/catalog/home': home,
  '/catalog/search': search,
  '/catalog/genres': genres,
  '/catalog/ongoing-series': ongoingSeries,
  '/catalog/popular-series': popularSeries,
  '/catalog/new-movie': newMovie,
};

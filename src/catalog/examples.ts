import type { z } from 'zod';
import type { ReportInput } from '../reports/schema.js';
import type {
  GenresData,
  HomeData,
  NewMovieData,
  OngoingSeriesData,
  Pagination,
  PopularSeriesData,
  SearchData,
  SeriesCard,
} from './schemas.js';

// One example per endpoint for the API reference and /openapi.json. Each is typed by its endpoint's
// data schema, so a shape change that is not carried over here fails the type check; a test also
// parses every example with its endpoint's envelope.

export interface EndpointExample<Data extends z.ZodType = z.ZodType> {
  /** The query the landing page's link and the reference's "Coba" form start with. */
  query: Record<string, string>;
  response: {
    status: 'success';
    data: z.output<Data>;
    pagination: Pagination | null;
    meta: { source: string; fetchedAt: string };
  };
}

const ORIGIN = 'https://anichin.cafe';
const FETCHED_AT = '2026-11-21T10:00:00.000Z';
const meta = (path: string) => ({ source: `${ORIGIN}${path}`, fetchedAt: FETCHED_AT });

const renegadeImmortal: SeriesCard = {
  title: 'Renegade Immortal',
  slug: 'renegade-immortal',
  url: `${ORIGIN}/seri/renegade-immortal/`,
  poster: `${ORIGIN}/wp-content/uploads/2025/04/Renegade-Immortal.webp`,
  type: 'Donghua',
  status: 'Ongoing',
  sub: 'Sub',
};

const soulLand: SeriesCard = {
  title: 'Soul Land 2: The Unrivaled Tang Sect',
  slug: 'soul-land-2-the-unrivaled-tang-sect',
  url: `${ORIGIN}/seri/soul-land-2-the-unrivaled-tang-sect/`,
  poster: `${ORIGIN}/wp-content/uploads/2023/06/Soul-Land-2.webp`,
  type: 'Donghua',
  status: 'Ongoing',
  sub: 'Sub',
};

const movieCard: SeriesCard = {
  title: 'Jade Dynasty: The Movie',
  slug: 'jade-dynasty-the-movie',
  url: `${ORIGIN}/seri/jade-dynasty-the-movie/`,
  poster: `${ORIGIN}/wp-content/uploads/2026/10/Jade-Dynasty-Movie.webp`,
  type: 'Movie',
  status: 'Completed',
  sub: 'Sub',
};

const firstOfMany = (nextPage: number | null): Pagination => ({
  currentPage: 1,
  hasPrevPage: false,
  prevPage: null,
  hasNextPage: nextPage !== null,
  nextPage,
  totalPages: null,
});

const home: EndpointExample<typeof HomeData> = {
  query: {},
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
  query: { q: 'soul' },
  response: {
    status: 'success',
    data: { query: 'soul', results: [soulLand] },
    pagination: { ...firstOfMany(null), totalPages: 1 },
    meta: meta('/?s=soul'),
  },
};

const genres: EndpointExample<typeof GenresData> = {
  query: {},
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
  query: { page: '2' },
  response: {
    status: 'success',
    data: { series: [renegadeImmortal] },
    pagination: { currentPage: 2, hasPrevPage: true, prevPage: 1, hasNextPage: true, nextPage: 3, totalPages: 6 },
    meta: meta('/ongoing/page/2/'),
  },
};

const popularSeries: EndpointExample<typeof PopularSeriesData> = {
  query: {},
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
  query: {},
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

const EXAMPLES: Record<string, EndpointExample> = {
  '/catalog/home': home,
  '/catalog/search': search,
  '/catalog/genres': genres,
  '/catalog/ongoing-series': ongoingSeries,
  '/catalog/popular-series': popularSeries,
  '/catalog/new-movie': newMovie,
};

export function exampleFor(path: string): EndpointExample {
  const example = EXAMPLES[path];
  if (!example) throw new Error(`No example for ${path} in src/catalog/examples.ts`);
  return example;
}

/** A report as a client sends it to POST /api/reports. */
export const REPORT_EXAMPLE: ReportInput = {
  category: 'wrong-data',
  endpoint: '/catalog/ongoing-series',
  title: 'Poster kosong di halaman 2',
  description: 'Beberapa serial di /catalog/ongoing-series?page=2 punya poster null, padahal di situs sumber ada gambarnya.',
  severity: 'medium',
};

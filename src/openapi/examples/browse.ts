import type {
  AzListData,
  CompletedSeriesData,
  ScheduleData,
  SeasonData,
  SeriesFilterData,
  TermListingData,
} from '../../contract/browse.js';
import { firstOfMany, meta, movieCard, ORIGIN, renegadeImmortal, soulLand, type EndpointExample } from './shared.js';

const completedSeries: EndpointExample<typeof CompletedSeriesData> = {
  parameters: { page: '2' },
  response: {
    status: 'success',
    data: { series: [movieCard] },
    pagination: { currentPage: 2, hasPrevPage: true, prevPage: 1, hasNextPage: true, nextPage: 3, totalPages: 20 },
    meta: meta('/completed/page/2/'),
  },
};

/** One taxonomy page's example: its term and the cards it lists. */
function termListing(taxonomy: string, slug: string, name: string): EndpointExample<typeof TermListingData> {
  return {
    parameters: { slug },
    response: {
      status: 'success',
      data: { term: { name, slug, url: `${ORIGIN}/${taxonomy}/${slug}/` }, series: [renegadeImmortal, soulLand] },
      pagination: { ...firstOfMany(2), totalPages: 39 },
      meta: meta(`/${taxonomy}/${slug}/`),
    },
  };
}

const seasons: EndpointExample<typeof SeasonData> = {
  parameters: { slug: '2025' },
  response: {
    status: 'success',
    data: {
      term: { name: '2025', slug: '2025', url: `${ORIGIN}/season/2025/` },
      series: [
        {
          title: renegadeImmortal.title,
          slug: renegadeImmortal.slug,
          url: renegadeImmortal.url,
          poster: renegadeImmortal.poster,
          alternativeTitle: 'Xian Ni',
          studio: 'BUILD DREAM',
          episodes: 128,
          type: 'Donghua',
          rating: 9.2,
          status: 'Ongoing',
          synopsis: 'Wang Lin, a boy of modest talent, sets out on the path of the immortals.',
          genres: [{ name: 'Action', slug: 'action', url: `${ORIGIN}/genres/action/` }],
        },
      ],
    },
    pagination: null,
    meta: meta('/season/2025/'),
  },
};

const schedule: EndpointExample<typeof ScheduleData> = {
  parameters: {},
  response: {
    status: 'success',
    data: {
      days: [
        {
          day: 'monday',
          label: 'Monday',
          items: [
            {
              title: soulLand.title,
              slug: soulLand.slug,
              url: soulLand.url,
              poster: soulLand.poster,
              nextEpisode: 121,
              releaseAt: '2026-11-23T03:33:00.000Z',
              timeText: 'at 10:33',
            },
          ],
        },
        {
          day: 'tuesday',
          label: 'Tuesday',
          items: [
            {
              title: renegadeImmortal.title,
              slug: renegadeImmortal.slug,
              url: renegadeImmortal.url,
              poster: renegadeImmortal.poster,
              nextEpisode: null,
              releaseAt: null,
              timeText: 'Released',
            },
          ],
        },
      ],
    },
    pagination: null,
    meta: meta('/schedule/'),
  },
};

const azList: EndpointExample<typeof AzListData> = {
  parameters: { letter: 'R' },
  response: {
    status: 'success',
    data: { letter: 'R', series: [renegadeImmortal] },
    pagination: { ...firstOfMany(2), totalPages: 4 },
    meta: meta('/az-lists/?show=R'),
  },
};

const seriesFilter: EndpointExample<typeof SeriesFilterData> = {
  parameters: { status: 'ongoing', order: 'popular', genre: 'action,fantasy' },
  response: {
    status: 'success',
    data: {
      filters: { status: 'ongoing', type: null, order: 'popular', genre: ['action', 'fantasy'], season: [], studio: [] },
      series: [soulLand, renegadeImmortal],
    },
    pagination: firstOfMany(2),
    meta: meta('/seri/?status=ongoing&order=popular&genre%5B%5D=action&genre%5B%5D=fantasy&page=1'),
  },
};

/** The examples of the browse group, by path. */
export const browseExamples: Record<string, EndpointExample> = {
  '/catalog/completed-series': completedSeries,
  '/catalog/genres/{slug}': termListing('genres', 'action', 'Action'),
  '/catalog/studios/{slug}': termListing('studio', 'build-dream', 'BUILD DREAM'),
  '/catalog/networks/{slug}': termListing('network', 'tencent-video', 'Tencent Video'),
  '/catalog/countries/{slug}': termListing('country', 'china', 'China'),
  '/catalog/seasons/{slug}': seasons,
  '/catalog/schedule': schedule,
  '/catalog/az-list': azList,
  '/catalog/series': seriesFilter,
};

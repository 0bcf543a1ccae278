import type { z } from 'zod';
import type { Pagination, SeriesCard } from '../../contract/schemas.js';

// Pieces the examples of every group share: the origin, a fetch time, cards and pagination.

export interface EndpointExample<Data extends z.ZodType = z.ZodType> {
  /** The path and query parameters the landing page's link and the reference's "Coba" form start with. */
  parameters: Record<string, string>;
  response: {
    status: 'success';
    data: z.output<Data>;
    pagination: Pagination | null;
    meta: { source: string; fetchedAt: string };
  };
}

export const ORIGIN = 'https://anichin.cafe';
const FETCHED_AT = '2026-11-21T10:00:00.000Z';
export const meta = (path: string) => ({ source: `${ORIGIN}${path}`, fetchedAt: FETCHED_AT });

export const renegadeImmortal: SeriesCard = {
  title: 'Renegade Immortal',
  slug: 'renegade-immortal',
  url: `${ORIGIN}/seri/renegade-immortal/`,
  poster: `${ORIGIN}/wp-content/uploads/2025/04/Renegade-Immortal.webp`,
  type: 'Donghua',
  status: 'Ongoing',
  sub: 'Sub',
};

export const soulLand: SeriesCard = {
  title: 'Soul Land 2: The Unrivaled Tang Sect',
  slug: 'soul-land-2-the-unrivaled-tang-sect',
  url: `${ORIGIN}/seri/soul-land-2-the-unrivaled-tang-sect/`,
  poster: `${ORIGIN}/wp-content/uploads/2023/06/Soul-Land-2.webp`,
  type: 'Donghua',
  status: 'Ongoing',
  sub: 'Sub',
};

export const movieCard: SeriesCard = {
  title: 'Jade Dynasty: The Movie',
  slug: 'jade-dynasty-the-movie',
  url: `${ORIGIN}/seri/jade-dynasty-the-movie/`,
  poster: `${ORIGIN}/wp-content/uploads/2026/10/Jade-Dynasty-Movie.webp`,
  type: 'Movie',
  status: 'Completed',
  sub: 'Sub',
};

export const firstOfMany = (nextPage: number | null): Pagination => ({
  currentPage: 1,
  hasPrevPage: false,
  prevPage: null,
  hasNextPage: nextPage !== null,
  nextPage,
  totalPages: null,
});

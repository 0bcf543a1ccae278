import { describe, expect, it } from 'vitest';
import { parseSchedulePage } from '../../../src/parsers/schedulePage.js';
import { parseSeasonPage } from '../../../src/parsers/seasonPage.js';
import { parseSeriesListPage } from '../../../src/parsers/seriesListPage.js';
import { parseTermListingPage } from '../../../src/parsers/termListingPage.js';
import { GENRES, SEASONS, type Series } from '../../simulator/dataset.js';
import * as listings from '../../simulator/listings.js';
import { archiveUrl, azListPage, completedPage, termPage, termPath } from '../../simulator/pages/archivePage.js';
import { genreUrl, type PageContext } from '../../simulator/pages/context.js';
import { schedulePage } from '../../simulator/pages/schedulePage.js';
import { seasonPage } from '../../simulator/pages/seasonPage.js';
import { NETWORKS, UTF8_STUDIO } from '../../simulator/taxonomies.js';
import { VARIANT_NAMES, VARIANTS, type VariantName } from '../../simulator/variant.js';
import { expectedScheduleDays, expectedSeasonCards, expectedSeriesCard } from '../../helpers/listingExpectations.js';

// The simulator's completed, taxonomy, season, schedule and A–Z pages, parsed back into exactly
// what its listings say each page shows, on every theme profile.

const seriesCard = (ctx: PageContext, series: Series, index: number) => expectedSeriesCard(ctx, series, index);

describe.each<VariantName>(VARIANT_NAMES)('simulator listing pages, %s variant', (variant) => {
  const ctx: PageContext = { origin: 'http://127.0.0.1:41234', host: '127.0.0.1:41234', variant: VARIANTS[variant] };

  it('completed page 2: cards and numbered pagination', () => {
    const results = listings.completed(2);
    expect(results.totalPages).toBe(3);
    const parsed = parseSeriesListPage(completedPage(ctx, 2), archiveUrl(ctx, '/completed/', 2), { pageKind: 'completed' });
    expect(parsed.data.series).toEqual(results.items.map((series, index) => seriesCard(ctx, series, index)));
    expect(parsed.pagination).toEqual({ currentPage: 2, hasPrevPage: true, prevPage: 1, hasNextPage: true, nextPage: 3, totalPages: 3 });
  });

  it('a network page 2 and a genre page: the term from the heading (prefixed on the classic install)', () => {
    const network = NETWORKS[0]!;
    const results = listings.termListing('network', network.slug, 2);
    const parsed = parseTermListingPage(termPage(ctx, 'network', network, 2), archiveUrl(ctx, termPath('network', network), 2), 'network');
    expect(parsed.data).toEqual({
      term: { name: network.name, slug: network.slug, url: `${ctx.origin}/network/${network.slug}/` },
      series: results.items.map((series, index) => seriesCard(ctx, series, index)),
    });
    expect(parsed.pagination).toEqual({
      currentPage: 2,
      hasPrevPage: true,
      prevPage: 1,
      hasNextPage: false,
      nextPage: null,
      totalPages: 2,
    });
    const genre = GENRES.find((item) => item.slug === 'martial-arts')!;
    const genrePage = parseTermListingPage(termPage(ctx, 'genres', genre, 1), genreUrl(ctx, genre), 'genres');
    expect(genrePage.data.term).toEqual({ name: 'Martial Arts', slug: 'martial-arts', url: `${ctx.origin}/genres/martial-arts/` });
  });

  it('a studio with a UTF-8 slug', () => {
    const parsed = parseTermListingPage(
      termPage(ctx, 'studio', UTF8_STUDIO, 1),
      archiveUrl(ctx, termPath('studio', UTF8_STUDIO), 1),
      'studio',
    );
    expect(parsed.data.term).toEqual({ name: 'L²Studio', slug: 'l²studio', url: `${ctx.origin}/studio/l%c2%b2studio/` });
    expect(parsed.data.series).toEqual(
      listings.termListing('studio', UTF8_STUDIO.slug, 1).items.map((series, index) => seriesCard(ctx, series, index)),
    );
  });

  it('a season page: every season card, field by field', () => {
    const season = SEASONS.find((item) => item.slug === '2024')!;
    const parsed = parseSeasonPage(seasonPage(ctx, season), `${ctx.origin}/season/2024/`);
    expect(parsed.data.term).toEqual({ name: '2024', slug: '2024', url: `${ctx.origin}/season/2024/` });
    expect(parsed.data.series).toEqual(expectedSeasonCards(ctx, '2024'));
    expect(parsed.data.series.length).toBeGreaterThan(3);
  });

  it('the schedule: printed from today, returned Monday first with ISO release times', () => {
    const parsed = parseSchedulePage(schedulePage(ctx), `${ctx.origin}/schedule/`);
    expect(parsed.data.days).toEqual(expectedScheduleDays(ctx));
    const items = parsed.data.days.flatMap((day) => day.items);
    expect(items.some((item) => item.nextEpisode === null)).toBe(true);
    expect(items.some((item) => item.timeText === 'Released' && item.releaseAt === null)).toBe(true);
  });

  it('the A–Z list of one letter, page 1', () => {
    const results = listings.azList('S', 1);
    const parsed = parseSeriesListPage(azListPage(ctx, 'S', 1), `${ctx.origin}/az-lists/?show=S`, {
      pageKind: 'azList',
      emptyIsValid: true,
    });
    expect(parsed.data.series).toEqual(results.items.map((series, index) => seriesCard(ctx, series, index)));
    expect(parsed.pagination).toEqual({
      currentPage: 1,
      hasPrevPage: false,
      prevPage: null,
      hasNextPage: true,
      nextPage: 2,
      totalPages: results.totalPages,
    });
  });
});

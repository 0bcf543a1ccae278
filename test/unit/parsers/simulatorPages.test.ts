import { describe, expect, it } from 'vitest';
import type { EpisodeCard, Pagination, RankedSeries, SeriesCard } from '../../../src/contract/schemas.js';
import { LayoutChangedError, PagePastEndError } from '../../../src/parsers/errors.js';
import { parseGenreList } from '../../../src/parsers/genreList.js';
import { parseHomePage } from '../../../src/parsers/homePage.js';
import { parseSearchPage } from '../../../src/parsers/searchPage.js';
import { parseNewMoviePage, parsePopularSeriesPage, parseSeriesListPage } from '../../../src/parsers/seriesListPage.js';
import * as catalog from '../../simulator/catalog.js';
import type { Series } from '../../simulator/dataset.js';
import { catalogOf, genreUrl, seriesUrl, type PageContext } from '../../simulator/pages/context.js';
import { expectedRecommendationCard } from '../../helpers/listingExpectations.js';
import { homePage, homePageUrl } from '../../simulator/pages/homePage.js';
import { imageStyleAt, posterUrl } from '../../simulator/pages/images.js';
import { ongoingPage, ongoingPageUrl } from '../../simulator/pages/ongoingPage.js';
import { redesign } from '../../simulator/pages/redesign.js';
import { searchPage, searchPageUrl } from '../../simulator/pages/searchPage.js';
import { seriesListPage } from '../../simulator/pages/seriesListPage.js';
import { VARIANT_NAMES, VARIANTS, type VariantName } from '../../simulator/variant.js';

// The simulator renders its dataset in the theme's markup; parsing those pages must give back
// exactly what its catalog functions say each page shows, on every theme profile.

function contextFor(variant: VariantName): PageContext {
  return { origin: 'http://127.0.0.1:41234', host: '127.0.0.1:41234', variant: VARIANTS[variant] };
}

const poster = (ctx: PageContext, series: Series, index: number) => posterUrl(ctx, series.poster, imageStyleAt(ctx, index), index);

function seriesCard(ctx: PageContext, series: Series, index: number): SeriesCard {
  return {
    title: series.title,
    slug: series.slug,
    url: seriesUrl(ctx, series),
    poster: poster(ctx, series, index),
    type: series.type,
    status: series.status,
    sub: series.sub,
  };
}

function episodeCard(ctx: PageContext, item: catalog.EpisodeItem, index: number): EpisodeCard {
  return {
    seriesTitle: item.series.title,
    episodeTitle: item.title,
    episode: item.episode,
    slug: item.path.split('/').filter(Boolean).at(-1) ?? '',
    url: `${ctx.origin}${item.path}`,
    poster: poster(ctx, item.series, index),
    type: item.series.type,
    sub: item.series.sub,
  };
}

function ranked(ctx: PageContext, range: catalog.RankingRange): RankedSeries[] {
  return catalog.ranking(range, catalogOf(ctx)).map((series, index) => ({
    rank: index + 1,
    title: series.title,
    slug: series.slug,
    url: seriesUrl(ctx, series),
    poster: poster(ctx, series, index),
    genres: series.genres.map(({ name, slug }) => ({ name, slug })),
    // The widget prints the score with two decimals.
    rating: series.rating === null ? null : Number(series.rating.toFixed(2)),
  }));
}

function pagination(current: number, total: number, numbered: boolean): Pagination {
  return {
    currentPage: current,
    hasPrevPage: current > 1,
    prevPage: current > 1 ? current - 1 : null,
    hasNextPage: current < total,
    nextPage: current < total ? current + 1 : null,
    // The prev/next pager does not print a total, except that a page without "next" is the last.
    totalPages: numbered || current === total ? total : null,
  };
}

describe.each(VARIANT_NAMES)('simulated %s pages', (variant) => {
  const ctx = contextFor(variant);
  const site = catalogOf(ctx);
  const lastHomePage = catalog.homeTotalPages(site);

  it.each([1, 2, lastHomePage])('home page %i', (page) => {
    const parsed = parseHomePage(homePage(ctx, page), homePageUrl(ctx, page));
    expect(parsed).toEqual({
      data: {
        slider: catalog.homeSlider(site).map((series) => ({
          title: series.title,
          slug: series.slug,
          url: seriesUrl(ctx, series),
          banner: `${ctx.origin}${series.banner ?? series.poster}`,
          synopsis: series.synopsis,
        })),
        popularToday: catalog.popularToday(site).map((item, index) => episodeCard(ctx, item, index)),
        latestRelease: catalog.latestReleases(page, site).items.map((item, index) => episodeCard(ctx, item, index)),
        recommendations: catalog.recommendations(site).map(({ genre, items }) => ({
          genre: genre.name,
          items: items.map((series, index) => expectedRecommendationCard(ctx, series, index)),
        })),
      },
      pagination: pagination(page, lastHomePage, false),
      missing: [],
    });
  });

  it.each([
    ['a multi-page query', 'the', 2],
    ['a query without hits', 'zzzqqq', 1],
  ])('search with %s', (_, query, page) => {
    const results = catalog.search(query, page, site);
    const parsed = parseSearchPage(searchPage(ctx, query, page), searchPageUrl(ctx, query, page));
    expect(parsed).toEqual({
      data: { results: results.items.map((series, index) => seriesCard(ctx, series, index)) },
      pagination: pagination(page, Math.max(results.totalPages, 1), true),
      missing: [],
    });
  });

  it('ongoing page 2', () => {
    const results = catalog.ongoing(2, site);
    expect(parseSeriesListPage(ongoingPage(ctx, 2), ongoingPageUrl(ctx, 2))).toEqual({
      data: { series: results.items.map((series, index) => seriesCard(ctx, series, index)) },
      pagination: pagination(2, results.totalPages, true),
      missing: [],
    });
  });

  it('popular series page 2 with the sidebar ranking', () => {
    const path = ctx.variant.listPath;
    const params = new URLSearchParams({ order: 'popular', page: '2' });
    const results = catalog.popular(2, site);
    const parsed = parsePopularSeriesPage(seriesListPage(ctx, path, params), `${ctx.origin}${path}?${params.toString()}`);
    expect(parsed).toEqual({
      data: {
        series: results.items.map((series, index) => seriesCard(ctx, series, index)),
        ranking: { weekly: ranked(ctx, 'weekly'), monthly: ranked(ctx, 'monthly'), allTime: ranked(ctx, 'alltime') },
      },
      pagination: pagination(2, results.totalPages, false),
      missing: [],
    });
  });

  it('new movies page 1 with the NEW MOVIE widget', () => {
    const path = ctx.variant.listPath;
    const params = new URLSearchParams({ type: 'movie', order: 'update' });
    const results = catalog.movies(1, site);
    const parsed = parseNewMoviePage(seriesListPage(ctx, path, params), `${ctx.origin}${path}?${params.toString()}`);
    expect(parsed).toEqual({
      data: {
        movies: results.items.map((series, index) => seriesCard(ctx, series, index)),
        latest: catalog.newMovies(site).map(({ series, dateText }, index) => ({
          title: series.title,
          slug: series.slug,
          url: seriesUrl(ctx, series),
          poster: poster(ctx, series, index),
          genres: series.genres.map(({ name, slug }) => ({ name, slug })),
          releaseDate: dateText === 'TBA' ? null : series.releaseDate,
          releaseDateText: dateText,
        })),
      },
      pagination: pagination(1, results.totalPages, false),
      missing: [],
    });
  });

  it('a series list page past the end', () => {
    const path = ctx.variant.listPath;
    const page = catalog.popular(1, site).totalPages + 1;
    const params = new URLSearchParams({ order: 'popular', page: String(page) });
    expect(() => parseSeriesListPage(seriesListPage(ctx, path, params), `${ctx.origin}${path}?${params.toString()}`)).toThrow(
      new PagePastEndError('seriesList', page),
    );
  });

  it('the genre list from the sidebar widget', () => {
    expect(parseGenreList(homePage(ctx, 1), homePageUrl(ctx, 1))).toEqual({
      data: { genres: catalog.sidebarGenres().map((genre) => ({ name: genre.name, slug: genre.slug, url: genreUrl(ctx, genre) })) },
      pagination: null,
      missing: [],
    });
  });

  it.each([
    ['home', () => parseHomePage(redesign(homePage(ctx, 1)), homePageUrl(ctx, 1))],
    ['search', () => parseSearchPage(redesign(searchPage(ctx, 'the', 1)), searchPageUrl(ctx, 'the', 1))],
    ['ongoing', () => parseSeriesListPage(redesign(ongoingPage(ctx, 1)), ongoingPageUrl(ctx, 1))],
    ['genres', () => parseGenreList(redesign(homePage(ctx, 1)), homePageUrl(ctx, 1))],
  ])('the redesigned %s page is a layout change', (_, parse) => {
    expect(parse).toThrow(LayoutChangedError);
  });
});

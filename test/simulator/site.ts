import { homeTotalPages, ongoing, search } from './catalog.js';
import { catalogOf, type PageContext } from './pages/context.js';
import { homePage } from './pages/homePage.js';
import { notFoundPage } from './pages/notFoundPage.js';
import { ongoingPage } from './pages/ongoingPage.js';
import { searchPage } from './pages/searchPage.js';
import { seriesListPage } from './pages/seriesListPage.js';
import { findEpisode, findSeries, serversOf } from './episodes.js';
import { episodePage } from './pages/episodePage.js';
import { seriesPage } from './pages/seriesPage.js';
import type { Route } from './router.js';
import { azList, completed, findTerm, termListing } from './listings.js';
import { azListPage, completedPage, termPage } from './pages/archivePage.js';
import { schedulePage } from './pages/schedulePage.js';
import { seasonPage } from './pages/seasonPage.js';

/** What WordPress answers for a route: a page, its 404 (also for paged URLs past the last page), or a redirect. */
export type SiteAnswer = { readonly status: 200 | 404; readonly html: string } | { readonly status: 301; readonly location: string };

export function answerRoute(ctx: PageContext, route: Route): SiteAnswer {
  const catalog = catalogOf(ctx);
  const notFound = (): SiteAnswer => ({ status: 404, html: notFoundPage(ctx) });
  switch (route.kind) {
    case 'home':
      return route.page > homeTotalPages(catalog) ? notFound() : { status: 200, html: homePage(ctx, route.page) };
    case 'search':
      // Page 1 always renders (possibly "nothing found"); later pages exist only while there are results.
      return route.page > 1 && route.page > search(route.query, 1, catalog).totalPages
        ? notFound()
        : { status: 200, html: searchPage(ctx, route.query, route.page) };
    case 'ongoing':
      return route.page > ongoing(1, catalog).totalPages ? notFound() : { status: 200, html: ongoingPage(ctx, route.page) };
    case 'seriesList':
      return { status: 200, html: seriesListPage(ctx, route.listPath, route.params) };
    case 'series': {
      const series = findSeries(route.slug, catalog);
      return series === null ? notFound() : { status: 200, html: seriesPage(ctx, series) };
    }
    case 'episode': {
      const episode = findEpisode(route.slug, catalog);
      return episode === null || route.server > serversOf(episode.item).length
        ? notFound()
        : { status: 200, html: episodePage(ctx, episode, route.server) };
    }
    case 'completed':
      return route.page > Math.max(1, completed(1, catalog).totalPages)
        ? notFound()
        : { status: 200, html: completedPage(ctx, route.page) };
    case 'term': {
      // An existing term without series still has its (empty) first page; unknown terms are 404.
      const term = findTerm(route.taxonomy, route.slug);
      return term === undefined || route.page > Math.max(1, termListing(route.taxonomy, term.slug, 1, catalog).totalPages)
        ? notFound()
        : { status: 200, html: termPage(ctx, route.taxonomy, term, route.page) };
    }
    case 'season': {
      const term = findTerm('season', route.slug);
      return term === undefined ? notFound() : { status: 200, html: seasonPage(ctx, term) };
    }
    case 'schedule':
      return { status: 200, html: schedulePage(ctx) };
    case 'azList':
      return route.page > Math.max(1, azList(route.letter, 1, catalog).totalPages)
        ? notFound()
        : { status: 200, html: azListPage(ctx, route.letter, route.page) };
    case 'redirect':
      return { status: 301, location: `${ctx.origin}${route.location}` };
    case 'notFound':
      return notFound();
  }
}

import { search } from '../catalog.js';
import { SITE_NAME } from '../dataset.js';
import { seriesCard } from './card.js';
import { catalogOf, type PageContext } from './context.js';
import { text } from './html.js';
import { layout } from './layout.js';
import { paginateLinks } from './pagination.js';

/** Search `/?s=q` and `/page/N/?s=q`: 10 series cards a page and WordPress pagination. */

/** WordPress keeps the query as the browser sent it: spaces as `+`. */
function encodeQuery(query: string): string {
  return encodeURIComponent(query).replace(/%20/g, '+');
}

export function searchPageUrl(ctx: PageContext, query: string, page: number): string {
  const path = page === 1 ? '/' : `/page/${page}/`;
  return `${ctx.origin}${path}?s=${encodeQuery(query)}`;
}

/** Callers make sure `page` is 1 or within the result pages. */
export function searchPage(ctx: PageContext, query: string, page: number): string {
  const results = search(query, page, catalogOf(ctx));
  const body =
    results.totalItems === 0
      ? `<div class="listupd">\n<center><h3>${text(ctx.variant.headings.searchNotFound)}</h3></center>\n</div>`
      : `<div class="listupd">
${results.items.map((series, index) => seriesCard(ctx, series, index)).join('\n')}
</div>
${paginateLinks(page, results.totalPages, (n) => searchPageUrl(ctx, query, n))}`;
  const main = `<div class="bixbox">
<div class="releases"><h1><span>Search '${text(query)}'</span></h1></div>
${body}
</div>`;
  return layout(ctx, { title: `You searched for ${query} - ${SITE_NAME}`, canonical: null, bodyClass: 'search search-results', main });
}

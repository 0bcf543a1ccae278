import { ongoing } from '../catalog.js';
import { SITE_NAME } from '../dataset.js';
import { inlineAd } from './ads.js';
import { seriesCard } from './card.js';
import { catalogOf, type PageContext } from './context.js';
import { layout } from './layout.js';
import { paginateLinks } from './pagination.js';

/** `/ongoing/` and `/ongoing/page/N/`: a custom page template, 20 series cards a page, WordPress pagination. */

export function ongoingPageUrl(ctx: PageContext, page: number): string {
  return page === 1 ? `${ctx.origin}/ongoing/` : `${ctx.origin}/ongoing/page/${page}/`;
}

/** Callers make sure `page` is within the result pages. */
export function ongoingPage(ctx: PageContext, page: number): string {
  const results = ongoing(page, catalogOf(ctx));
  const main = `<div class="bixbox">
<div class="releases"><h1><span>${ctx.variant.headings.ongoing}</span></h1></div>
<div class="listupd">
${results.items.map((series, index) => seriesCard(ctx, series, index)).join('\n')}
</div>
${paginateLinks(page, results.totalPages, (n) => ongoingPageUrl(ctx, n))}
</div>
${inlineAd(1)}`;
  const title = page === 1 ? `Ongoing - ${SITE_NAME}` : `Ongoing - Page ${page} of ${results.totalPages} - ${SITE_NAME}`;
  return layout(ctx, { title, canonical: ongoingPageUrl(ctx, page), bodyClass: 'page-template page-template-ongoing page', main });
}

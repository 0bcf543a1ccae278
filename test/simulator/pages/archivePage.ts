import { azList, completed, termListing } from '../listings.js';
import { SITE_NAME, type Series, type Term } from '../dataset.js';
import type { Taxonomy } from '../taxonomies.js';
import { inlineAd } from './ads.js';
import { seriesCard } from './card.js';
import { catalogOf, type PageContext } from './context.js';
import { text } from './html.js';
import { layout } from './layout.js';
import { paginateLinks } from './pagination.js';

/**
 * WordPress archives in the listing layout: `/completed/`, `/genres/{slug}/`,
 * `/studio/{slug}/`, `/network/{slug}/`, `/country/{slug}/` and `/az-lists/`, each with
 * `page/N/` and numbered pagination. Callers make sure `page` is 1 or within the result pages.
 */

interface ArchiveInput {
  readonly heading: string;
  readonly items: readonly Series[];
  readonly page: number;
  readonly totalPages: number;
  readonly pageUrl: (page: number) => string;
  readonly title: string;
  readonly bodyClass: string;
  /** Printed between the heading and the cards (the A–Z letter bar). */
  readonly beforeList?: string;
}

function archivePage(ctx: PageContext, input: ArchiveInput): string {
  const main = `<div class="bixbox">
<div class="releases"><h1><span>${text(input.heading)}</span></h1></div>
${input.beforeList ?? ''}
<div class="listupd">
${input.items.map((series, index) => seriesCard(ctx, series, index)).join('\n')}
</div>
${paginateLinks(input.page, input.totalPages, input.pageUrl)}
</div>
${inlineAd(1)}`;
  const title =
    input.page === 1 ? `${input.title} - ${SITE_NAME}` : `${input.title} - Page ${input.page} of ${input.totalPages} - ${SITE_NAME}`;
  return layout(ctx, { title, canonical: input.pageUrl(input.page), bodyClass: input.bodyClass, main });
}

/** `base` (`/completed/`) or `base` + `page/N/`, absolute. */
export function archiveUrl(ctx: PageContext, base: string, page: number, query = ''): string {
  return `${ctx.origin}${page === 1 ? base : `${base}page/${page}/`}${query}`;
}

export function completedPage(ctx: PageContext, page: number): string {
  const results = completed(page, catalogOf(ctx));
  return archivePage(ctx, {
    heading: 'Completed',
    ...results,
    pageUrl: (n) => archiveUrl(ctx, '/completed/', n),
    title: 'Completed',
    bodyClass: 'page-template page-template-completed page',
  });
}

/** The path of a term archive, its slug percent-encoded as WordPress stores it. */
export function termPath(taxonomy: Taxonomy, term: Term): string {
  return `/${taxonomy}/${encodeURIComponent(term.slug).toLowerCase()}/`;
}

export function termPage(ctx: PageContext, taxonomy: Exclude<Taxonomy, 'season'>, term: Term, page: number): string {
  const results = termListing(taxonomy, term.slug, page, catalogOf(ctx));
  return archivePage(ctx, {
    // Older installs print the taxonomy before the name; parsers strip it.
    heading: ctx.variant.name === 'classic' && taxonomy === 'genres' ? `Genre: ${term.name}` : term.name,
    ...results,
    pageUrl: (n) => archiveUrl(ctx, termPath(taxonomy, term), n),
    title: term.name,
    bodyClass: `archive tax-${taxonomy} term-${term.slug}`,
  });
}

const AZ_GROUPS = ['.', '0-9', ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

export function azListPage(ctx: PageContext, letter: string | null, page: number): string {
  const results = azList(letter, page, catalogOf(ctx));
  const query = letter === null ? '' : `?show=${encodeURIComponent(letter)}`;
  const letters = AZ_GROUPS.map(
    (group) =>
      `<li><a href="${ctx.origin}/az-lists/?show=${encodeURIComponent(group)}"${group === letter ? ' class="current"' : ''}>${group === '.' ? '#' : group}</a></li>`,
  );
  return archivePage(ctx, {
    heading: 'A-Z Lists',
    ...results,
    pageUrl: (n) => archiveUrl(ctx, '/az-lists/', n, query),
    title: 'A-Z Lists',
    bodyClass: 'page-template page-template-az page',
    beforeList: `<div class="lista"><ul>${letters.join('')}</ul></div>`,
  });
}

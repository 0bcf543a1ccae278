import { seriesList } from '../catalog.js';
import { SITE_NAME } from '../dataset.js';
import { seriesCard } from './card.js';
import { catalogOf, type PageContext } from './context.js';
import { layout } from './layout.js';
import { hpage } from './pagination.js';
import { quickFilterForm } from './quickFilter.js';

/**
 * The filterable series list `/seri/?status=&type=&order=&page=N` (also under `/anime/`). Its pager
 * links are relative query strings (`?page=3&status=&type=movie&order=update`) that must be resolved
 * against the list path, not the site root. A page past the end is a 200 with an empty list.
 */

/** PHP `http_build_query` of the other query parameters: arrays come back indexed (`genre%5B0%5D=action`). */
function phpQuery(params: URLSearchParams): string {
  const counters = new Map<string, number>();
  const encode = (value: string): string => encodeURIComponent(value).replace(/%20/g, '+');
  const pairs: string[] = [];
  for (const [key, value] of params) {
    if (key === 'page') continue;
    let name = key;
    if (key.endsWith('[]')) {
      const index = counters.get(key) ?? 0;
      counters.set(key, index + 1);
      name = `${key.slice(0, -2)}[${index}]`;
    }
    pairs.push(`${encode(name)}=${encode(value)}`);
  }
  return pairs.join('&');
}

/** The `?page=N&…` href the theme prints. */
export function listPageHref(params: URLSearchParams, page: number): string {
  const rest = phpQuery(params);
  return rest === '' ? `?page=${page}` : `?page=${page}&${rest}`;
}

/** A PHP array parameter, sent as `genre[]=…` by the form or as `genre[0]=…` by the pager's links. */
function arrayParam(params: URLSearchParams, name: string): string[] {
  const key = new RegExp(`^${name}\\[\\d*\\]$`);
  return [...params].filter(([param]) => key.test(param)).map(([, value]) => value);
}

function listPageNumber(params: URLSearchParams): number {
  const page = Number(params.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function seriesListPage(ctx: PageContext, listPath: string, params: URLSearchParams): string {
  const page = listPageNumber(params);
  const filter = {
    status: params.get('status') ?? '',
    type: params.get('type') ?? '',
    sub: params.get('sub') ?? '',
    order: params.get('order') ?? '',
    genre: arrayParam(params, 'genre'),
    season: arrayParam(params, 'season'),
    studio: arrayParam(params, 'studio'),
  };
  const results = seriesList(filter, page, catalogOf(ctx));
  const previous = page > 1 ? listPageHref(params, page - 1) : null;
  const next = page < results.totalPages ? listPageHref(params, page + 1) : null;
  const inner = `<div class="advancedsearch">
${quickFilterForm(ctx, filter)}
</div>
<div class="listupd">
${results.items.map((series, index) => seriesCard(ctx, series, index)).join('\n')}
</div>
${hpage(previous, next, ctx.variant.pagerLabels)}`;
  const main = `<div class="bixbox bixboxarc bbnofrm">
<div class="releases"><h1><span>${ctx.variant.headings.seriesList}</span></h1></div>
${ctx.variant.listWrapper ? `<div class="mrgn">\n${inner}\n</div>` : inner}
</div>`;
  return layout(ctx, {
    title: `${ctx.variant.headings.seriesList} - ${SITE_NAME}`,
    canonical: `${ctx.origin}${listPath}`,
    bodyClass: 'archive post-type-archive post-type-archive-anime',
    main,
  });
}

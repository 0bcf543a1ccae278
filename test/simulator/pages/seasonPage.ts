import { seasonListing } from '../listings.js';
import { SITE_NAME, type Series, type Term } from '../dataset.js';
import { termsOf } from '../taxonomies.js';
import { catalogOf, genreUrl, seriesUrl, type PageContext } from './context.js';
import { attr, text } from './html.js';
import { posterImg } from './images.js';
import { layout } from './layout.js';

/**
 * `/season/{slug}/`: the theme's season template, its own card layout and no
 * pagination. The cafe variant prints the episode count and type in one span, the classic one
 * in two; series without a rating have no right-hand stat.
 */

const STUDIO_COLORS = ['red', 'blue', 'green', 'orange', 'purple'];

function stats(ctx: PageContext, series: Series): string {
  const episodes = series.latestEpisode === null ? '? episodes' : `${series.latestEpisode} episodes`;
  const type = series.type ?? 'TV';
  const left =
    ctx.variant.name === 'classic' ? `<span>${episodes}</span><span>${type}</span>` : `<span>${episodes} &middot; ${type}</span>`;
  const right =
    series.rating === null ? '' : `<div class="right"><span><i class="fas fa-star"></i> ${series.rating.toFixed(2)}</span></div>`;
  return `<div class="stats"><div class="left">${left}</div>${right}</div>`;
}

function seasonCard(ctx: PageContext, series: Series, index: number): string {
  const studio = termsOf(series).studio;
  const genres = series.genres.map((genre) => `<a href="${genreUrl(ctx, genre)}" rel="tag">${text(genre.name)}</a>`).join(', ');
  return `<div class="card">
<div class="card-box">
<a href="${seriesUrl(ctx, series)}" rel="${series.id}">
<div class="card-thumb">${posterImg(ctx, { path: series.poster, title: series.title, index })}</div>
<div class="card-title"><h2 class="h4">${text(series.title)}</h2><span class="studio ${STUDIO_COLORS[index % STUDIO_COLORS.length]}">${text(studio.name)}</span></div>
</a>
<div class="card-info">
<div class="card-info-top">
${series.altTitles.length === 0 ? '' : `<div class="alternative">${text(series.altTitles.join(', '))}</div>`}
${stats(ctx, series)}
<div class="status ${attr(series.status)}">${series.status}</div>
<div class="desc"><p>${text(series.synopsis)}</p></div>
</div>
<div class="card-info-bottom">${genres}</div>
</div>
</div>
</div>`;
}

export function seasonPage(ctx: PageContext, term: Term): string {
  const main = `<div class="bixbox">
<div class="newseason">
<h1>${text(term.name)}</h1>
${seasonListing(term.slug, catalogOf(ctx))
  .map((series, index) => seasonCard(ctx, series, index))
  .join('\n')}
</div>
</div>`;
  return layout(ctx, {
    title: `${term.name} - ${SITE_NAME}`,
    canonical: `${ctx.origin}/season/${term.slug}/`,
    bodyClass: `archive tax-season term-${term.slug}`,
    main,
  });
}

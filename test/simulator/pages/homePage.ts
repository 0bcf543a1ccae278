import { homeSlider, homeTotalPages, latestReleases, popularToday, recommendations } from '../catalog.js';
import { SITE_NAME, type Series } from '../dataset.js';
import { episodesOf } from '../episodes.js';
import { inlineAd } from './ads.js';
import { episodeCard, seriesCard } from './card.js';
import { absolute, catalogOf, seriesUrl, type PageContext } from './context.js';
import { attr, text } from './html.js';
import { layout } from './layout.js';
import { hpage } from './pagination.js';

/** Home `/` and `/page/N/`. Every page repeats the slider, Popular Today and Recommendation; only Latest Release pages. */

export function homePageUrl(ctx: PageContext, page: number): string {
  return page === 1 ? `${ctx.origin}/` : `${ctx.origin}/page/${page}/`;
}

function slider(ctx: PageContext): string {
  const slides = homeSlider(catalogOf(ctx)).map(
    (series) => `<div class="swiper-slide item">
<div class="backdrop" style="background-image:url('${ctx.origin}${series.banner ?? series.poster}')"></div>
<div class="info">
<div class="limit">
<h2><a href="${seriesUrl(ctx, series)}" data-jtitle="${attr(series.title)}">${text(series.title)}</a></h2>
<p>${text(series.synopsis)}</p>
<a class="watch" href="${seriesUrl(ctx, series)}"><i class="fas fa-play" aria-hidden="true"></i> Watch</a>
</div>
</div>
</div>`,
  );
  return `<div id="slidertwo" class="swiper-container">
<div class="swiper-wrapper">
${slides.join('\n')}
</div>
<div class="swiper-pagination"></div>
</div>`;
}

function heading(ctx: PageContext, label: string): string {
  const tag = ctx.variant.homeHeadingTag;
  return `<${tag}>${label}</${tag}>`;
}

function popularTodaySection(ctx: PageContext): string {
  const { listClass, innerClass } = ctx.variant.popularTodayList;
  const cards = popularToday(catalogOf(ctx)).map((item, index) => episodeCard(ctx, item, index));
  return `<div class="bixbox bbnofrm">
<div class="releases hothome">${heading(ctx, ctx.variant.headings.popularToday)}</div>
<div class="listupd ${listClass}">
<div class="${innerClass}">
${cards.join('\n')}
</div>
</div>
</div>`;
}

function latestSection(ctx: PageContext, page: number): string {
  const latest = latestReleases(page, catalogOf(ctx));
  const cards = latest.items.map((item, index) => episodeCard(ctx, item, index));
  const previous = page > 1 ? homePageUrl(ctx, page - 1) : null;
  const next = page < homeTotalPages(catalogOf(ctx)) ? homePageUrl(ctx, page + 1) : null;
  // The theme hard-codes /anime/ in View All, whatever the install's series path.
  const viewAll = absolute(ctx, '/anime/?status=&#038;type=&#038;order=update');
  return `<div class="bixbox bbnofrm">
<div class="releases latesthome">${heading(ctx, ctx.variant.headings.latestRelease)}<a class="vl" href="${viewAll}">View All</a></div>
<div class="listupd normal">
<div class="excstf">
${cards.join('\n')}
</div>
${hpage(previous, next, ctx.variant.pagerLabels)}
</div>
</div>`;
}

/** The later snapshot's tabs list each series' latest episode post; a series with none yet keeps its series card. */
function recommendationCard(ctx: PageContext, series: Series, index: number): string {
  const latest = ctx.variant.recommendationCards === 'episode' ? episodesOf(series)[0] : undefined;
  return latest === undefined ? seriesCard(ctx, series, index) : episodeCard(ctx, latest, index);
}

function recommendationSection(ctx: PageContext): string {
  const tabs = recommendations(catalogOf(ctx));
  const nav = tabs.map(
    ({ genre }, index) => `<li${index === 0 ? ' class="active"' : ''}><a href="#series-${genre.id}">${text(genre.name)}</a></li>`,
  );
  const panes = tabs.map(
    ({ genre, items }, index) => `<div class="tab-pane${index === 0 ? ' active' : ''}" id="series-${genre.id}">
<div class="listupd">
${items.map((series, cardIndex) => recommendationCard(ctx, series, cardIndex)).join('\n')}
</div>
</div>`,
  );
  return `<div class="bixbox">
<div class="releases"><h3>${ctx.variant.headings.recommendation}</h3></div>
<div class="series-gen">
<ul class="nav-tabs">
${nav.join('\n')}
</ul>
<div class="tab-content">
${panes.join('\n')}
</div>
</div>
</div>`;
}

/** Callers make sure `page` is within 1..homeTotalPages(). */
export function homePage(ctx: PageContext, page: number): string {
  const main = `<h1 style="display: none;">${SITE_NAME} - Nonton Donghua Subtitle Indonesia</h1>
${slider(ctx)}
${popularTodaySection(ctx)}
${inlineAd(0)}
${latestSection(ctx, page)}
${inlineAd(2)}
${recommendationSection(ctx)}`;
  const title =
    page === 1 ? `${SITE_NAME} - Nonton Donghua Subtitle Indonesia` : `${SITE_NAME} - Nonton Donghua Subtitle Indonesia - Page ${page}`;
  return layout(ctx, { title, canonical: homePageUrl(ctx, page), bodyClass: page === 1 ? 'home blog' : 'home blog paged', main });
}

import { newMovies, ongoingSidebar, padEpisode, ranking, seasonWidget, sidebarGenres, type RankingRange } from '../catalog.js';
import type { Series } from '../dataset.js';
import { sidebarAdBlock } from './ads.js';
import { absolute, catalogOf, genreUrl, seriesUrl, type PageContext } from './context.js';
import { attr, text } from './html.js';
import { posterImg } from './images.js';
import { quickFilterForm } from './quickFilter.js';

/** `div#sidebar`, the same on every page. Real scrapers find these widgets by their heading text. */

const RANGES: readonly (readonly [RankingRange, string])[] = [
  ['weekly', 'Weekly'],
  ['monthly', 'Monthly'],
  ['alltime', 'All'],
];

/** Widgets are cached fragments; the theme marks them with these comments. */
function cached(html: string): string {
  return `<!--themesia cache start-->\n${html}\n<!--themesia cache end 2026-04-25 10:00:00-->`;
}

function genreLinks(ctx: PageContext, series: Series): string {
  const links = series.genres.map((genre) => `<a href="${genreUrl(ctx, genre)}" rel="tag">${text(genre.name)}</a>`);
  return `<span><b>Genres</b>: ${links.join(', ')}</span>`;
}

function seriesThumb(ctx: PageContext, series: Series, index: number): string {
  const img = posterImg(ctx, { path: series.poster, title: series.title, index, width: 65, height: 85 });
  return `<div class="imgseries"><a class="series" href="${seriesUrl(ctx, series)}" rel="${series.id}">${img}</a></div>`;
}

function seriesHeading(ctx: PageContext, series: Series): string {
  return `<h4><a class="series" href="${seriesUrl(ctx, series)}" rel="${series.id}">${text(series.title)}</a></h4>`;
}

/** Star bar plus score; the theme leaves the whole block out when a series has no rating. */
function ratingBlock(rating: number | null): string {
  if (rating === null) return '';
  return `<div class="rt"><div class="rating"><div class="rating-prc"><div class="rtp"><div class="rtb"><span style="width:${Math.round(rating * 10)}%"></span></div></div></div><div class="numscore">${rating.toFixed(2)}</div></div></div>`;
}

function rankingList(ctx: PageContext, range: RankingRange): string {
  const hidden = range === 'weekly' ? '' : ' style="display:none"';
  const items = ranking(range, catalogOf(ctx)).map(
    (series, index) => `<li>
<div class="ctr">${index + 1}</div>
${seriesThumb(ctx, series, index)}
<div class="leftseries">
${seriesHeading(ctx, series)}
${genreLinks(ctx, series)}
${ratingBlock(series.rating)}
</div>
</li>`,
  );
  return `<div class="serieslist pop wpop wpop-${range}"${hidden}>\n<ul>\n${items.join('\n')}\n</ul>\n</div>`;
}

function popularWidget(ctx: PageContext): string {
  const tabs = RANGES.map(
    ([range, label]) => `<li${range === 'weekly' ? ' class="active"' : ''}><a class="ts-wpop-tab" data-range="${range}">${label}</a></li>`,
  );
  return `<div class="section">
<div class="releases"><h3>Popular Series</h3></div>
<div class="ts-wpop-series-gen">
<ul class="ts-wpop-nav-tabs">
${tabs.join('\n')}
</ul>
</div>
<div id="wpop-items">
${RANGES.map(([range]) => rankingList(ctx, range)).join('\n')}
</div>
</div>`;
}

function newMovieWidget(ctx: PageContext): string {
  const items = newMovies(catalogOf(ctx)).map(
    ({ series, dateText }, index) => `<li>
${seriesThumb(ctx, series, index)}
<div class="leftseries">
${seriesHeading(ctx, series)}
${genreLinks(ctx, series)}
<span>${dateText}</span>
</div>
</li>`,
  );
  // The theme hard-codes /anime/ and type=Movie here, whatever the install's series path.
  const viewAll = absolute(ctx, '/anime/?status=&#038;type=Movie&#038;order=update');
  return `<div class="section">
<div class="releases"><h3><span>NEW MOVIE</span></h3><a class="vl" href="${viewAll}">View All</a></div>
<div class="serieslist">
<ul>
${items.join('\n')}
</ul>
</div>
</div>`;
}

function ongoingWidget(ctx: PageContext): string {
  const items = ongoingSidebar(catalogOf(ctx)).map(
    (item) =>
      `<li><a href="${absolute(ctx, item.path)}" title="${attr(item.title)}"><span class="l"><i class="fas fa-angle-right"></i> ${text(item.series.title)}</span><span class="r">Episode ${padEpisode(item.episode ?? 0)}</span></a></li>`,
  );
  return `<div class="section">
<div class="releases"><h3>Ongoing Series</h3></div>
<span class="ts-ajax-cache" data-id="ongoing-series"><div class="ongoingseries">
<ul>
${items.join('\n')}
</ul>
</div></span>
</div>`;
}

function genreWidget(ctx: PageContext): string {
  const items = sidebarGenres().map(
    (genre) => `<li><a href="${genreUrl(ctx, genre)}" title="View all series in ${attr(genre.name)}">${text(genre.name)}</a></li>`,
  );
  return `<div class="section">
<div class="releases"><h3>Genres</h3></div>
<ul class="genre">
${items.join('\n')}
</ul>
</div>`;
}

function seasonWidgetHtml(ctx: PageContext): string {
  const items = seasonWidget().map(
    ({ season, count }) => `<li><a href="${absolute(ctx, `/season/${season.slug}/`)}">${season.name} <span>${count}</span></a></li>`,
  );
  return `<div class="section">
<div class="releases"><h3>Season Anichin</h3></div>
<div class="mseason"><ul class="season">
${items.join('\n')}
</ul></div>
</div>`;
}

// The sidebar is the same on every page of one site and catalog version, and half of a search
// page's rendering: built once per context and version.
const built = new WeakMap<PageContext, { version: number; html: string }>();

export function sidebar(ctx: PageContext): string {
  const version = catalogOf(ctx).version;
  let kept = built.get(ctx);
  if (kept?.version !== version) {
    kept = { version, html: sidebarHtml(ctx) };
    built.set(ctx, kept);
  }
  return kept.html;
}

function sidebarHtml(ctx: PageContext): string {
  return `<div id="sidebar">
${ctx.variant.sidebarQuickFilter ? cached(`<div class="section">\n${quickFilterForm(ctx)}\n</div>`) : ''}
${cached(popularWidget(ctx))}
${cached(newMovieWidget(ctx))}
${sidebarAdBlock()}
${cached(ongoingWidget(ctx))}
${cached(genreWidget(ctx))}
${cached(seasonWidgetHtml(ctx))}
</div>`;
}

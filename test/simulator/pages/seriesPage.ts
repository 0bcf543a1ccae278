import type { EpisodeItem } from '../catalog.js';
import { padEpisode } from '../catalog.js';
import { lastModified, SITE_NAME, type Series } from '../dataset.js';
import { batchesOf, episodesOf, longDate, seriesInfo, shortDate, siteDate, siteDatetime, type SeriesInfo } from '../episodes.js';
import { inlineAd } from './ads.js';
import { absolute, seriesUrl, type PageContext } from './context.js';
import { breadcrumb, downloadBlocks, infoRow, termLink } from './detailParts.js';
import { attr, text } from './html.js';
import { posterImg } from './images.js';
import { layout } from './layout.js';

/**
 * A series page `{seriesBase}{slug}/`: cover, poster, rating, info rows, genres, the
 * real synopsis beside two SEO blurbs, batch downloads for finished series, and the episode list.
 * Labels come and go with the data; each profile writes them in its language and adds its own
 * rows (Fansub, Director, Subber, Producers, …).
 */

/** The synopsis as the page's `.entry-content` paragraphs. */
export function synopsisParagraphs(series: Series): string[] {
  return [series.synopsis, `${series.title} is streamed here with Indonesian subtitles, episode by episode.`];
}

/** Where the poster image style comes from: its index in the variant's rotation. */
export function seriesPosterIndex(series: Series): number {
  return series.id % 7;
}

function seoText(series: Series): string {
  return `Nonton ${text(series.title)} subtitle Indonesia. Streaming dan download ${text(series.title)} sub indo gratis di ${SITE_NAME}.`;
}

function infoRows(ctx: PageContext, series: Series, info: SeriesInfo): string {
  const labels = ctx.variant.infoLabels;
  const rows = [
    infoRow('Status', series.status),
    info.networks.length > 0 ? infoRow('Network', info.networks.map((term) => termLink(ctx, '/network/', term)).join(', ')) : '',
    infoRow('Studio', info.studios.map((term) => termLink(ctx, '/studio/', term)).join(', ')),
    infoRow(labels.released, shortDate(info.released), 'split'),
    infoRow(labels.duration, info.duration),
    info.season === null ? '' : infoRow('Season', termLink(ctx, '/season/', info.season)),
    infoRow(labels.country, termLink(ctx, '/country/', info.country)),
    series.type === null ? '' : infoRow(labels.type, series.type),
    info.declaredEpisodes === null ? '' : infoRow(labels.episodes, String(info.declaredEpisodes)),
    ...ctx.variant.extraInfoRows.map(([label, value]) => infoRow(label, text(value))),
    infoRow(labels.postedBy, '<i itemprop="author" class="fn">admin</i>', 'author vcard'),
    infoRow(
      labels.publishedAt,
      `<time class="updated" itemprop="datePublished" datetime="${siteDatetime(info.publishedAt)}">${longDate(siteDate(info.publishedAt))}</time>`,
      'split',
    ),
    infoRow(
      labels.updatedAt,
      `<time itemprop="dateModified" datetime="${siteDatetime(lastModified(series))}">${longDate(siteDate(lastModified(series)))}</time>`,
      'split',
    ),
  ];
  return rows.filter(Boolean).join('\n');
}

function ratingBlock(series: Series): string {
  if (series.rating === null) return '';
  return `<div class="rating"><strong>Rating ${series.rating.toFixed(2)}</strong><div class="rating-prc" itemscope="itemscope" itemprop="aggregateRating" itemtype="//schema.org/AggregateRating"><meta itemprop="worstRating" content="1"><meta itemprop="bestRating" content="10"><meta itemprop="ratingCount" content="${(series.id % 97) + 3}"><meta itemprop="ratingValue" content="${series.rating.toFixed(2)}"><div class="rtp"><div class="rtb"><span style="width:${Math.round(series.rating * 10)}%"></span></div></div></div></div>`;
}

/** "Episode 01" on the First / New Episode buttons; a movie has no number. */
function episodeLabel(item: EpisodeItem): string {
  return item.episode === null ? 'Movie' : `Episode ${padEpisode(item.episode)}`;
}

/** The later snapshot's First Episode button links to `#` and names the episode unpadded ("Episode 1"). */
function firstEpisodeButton(ctx: PageContext, first: EpisodeItem): string {
  const [href, label] =
    ctx.variant.firstEpisodeButton === 'hash'
      ? ['#', first.episode === null ? 'Movie' : `Episode ${first.episode}`]
      : [absolute(ctx, first.path), episodeLabel(first)];
  return `<div class="inepcx"><a href="${href}"><span>First Episode</span><span class="epcur epcurfirst">${label}</span></a></div>`;
}

function lastEnd(ctx: PageContext, episodes: readonly EpisodeItem[]): string {
  const latest = episodes[0];
  const first = episodes.at(-1);
  if (latest === undefined || first === undefined) return '';
  return `<div class="lastend">
${firstEpisodeButton(ctx, first)}
<div class="inepcx"><a href="${absolute(ctx, latest.path)}"><span>New Episode</span><span class="epcur epcurlast">${episodeLabel(latest)}</span></a></div>
</div>`;
}

function episodeList(ctx: PageContext, episodes: readonly EpisodeItem[]): string {
  const items = episodes.map(
    (item, index) => `<li data-index="${index}"><a href="${absolute(ctx, item.path)}">
<div class="epl-num">${item.episode === null ? 'Movie' : padEpisode(item.episode)}</div>
<div class="epl-title">${text(item.title)}</div>
<div class="epl-sub">${item.series.sub === null ? '' : `<span class="status ${item.series.sub}">${item.series.sub}</span>`}</div>
<div class="epl-date">${longDate(siteDate(item.publishedAt))}</div>
</a></li>`,
  );
  return `<div class="eplister">
<div class="ephead"><div class="eph-num">Ep</div><div class="eph-title">Title</div><div class="eph-sub">Sub</div><div class="eph-date">Date</div></div>
<ul>
${items.join('\n')}
</ul>
</div>`;
}

export function seriesPage(ctx: PageContext, series: Series): string {
  const info = seriesInfo(series);
  const episodes = episodesOf(series);
  const batches = batchesOf(series);
  const url = seriesUrl(ctx, series);
  const title = text(series.title);
  const banner =
    series.banner === null
      ? ''
      : `<div class="bigcover"><div class="ime"><img src="${absolute(ctx, series.banner)}" class="attachment-full size-full" alt="${attr(series.title)}" loading="lazy" width="1400" height="400"></div></div>`;
  const main = `<article id="post-${series.id}" class="post-${series.id} hentry" itemscope="itemscope" itemtype="http://schema.org/CreativeWorkSeries">
${breadcrumb([
  ['Home', `${ctx.origin}/`],
  [series.title, url],
])}
<div class="bixbox animefull">
${banner}
<div class="bigcontent${series.banner === null ? ' nobigcv' : ''}">
<div class="thumbook">
<div class="thumb" itemprop="image" itemscope itemtype="https://schema.org/ImageObject">${posterImg(ctx, { path: series.poster, title: series.title, index: seriesPosterIndex(series) })}</div>
<div class="rt">
${ratingBlock(series)}
${info.trailer === null ? '' : `<a href="${info.trailer}" class="trailerbutton" data-fancybox><i class="fab fa-youtube"></i> Trailer</a>`}
<div class="bookmark" data-id="${series.id}"><i class="far fa-bookmark" aria-hidden="true"></i> Bookmark</div>
<div class="bmc">Followed ${info.followers} people</div>
</div>
</div>
<div class="infox">
<h1 class="entry-title" itemprop="name">${title}</h1>
<div class="ninfo">
<div class="mindesc">${seoText(series)}</div>
${series.altTitles.length === 0 ? '' : `<span class="alter">${text(series.altTitles.join(', '))}</span>`}
<div class="info-content">
<div class="spe">
${infoRows(ctx, series, info)}
</div>
<div class="genxed">${series.genres.map((genre) => termLink(ctx, '/genres/', genre)).join('')}</div>
<div class="desc mindes">${seoText(series)}</div>
</div>
</div>
</div>
</div>
<div class="bottom tags">${info.tags.map((tag) => termLink(ctx, '/tag/', tag)).join('')}</div>
</div>
<div class="socialts"><a href="https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}" target="_blank" class="fb"><i class="fab fa-facebook-f"></i> Facebook</a></div>
${inlineAd(2)}
<div class="bixbox synp">
<div class="releases"><h2><span>Synopsis ${title}</span></h2></div>
<div class="entry-content" itemprop="description">
${synopsisParagraphs(series)
  .map((paragraph) => `<p>${text(paragraph)}</p>`)
  .join('\n')}
</div>
</div>
${batches.length === 0 ? '' : `<div class="bixbox">\n<div class="releases"><h3>Download ${title}</h3></div>\n${downloadBlocks(batches)}\n</div>`}
<div class="bixbox bxcl epcheck">
<div class="releases"><h2>Watch ${title}</h2></div>
${lastEnd(ctx, episodes)}
${episodeList(ctx, episodes)}
</div>
<div class="bixbox"><div class="releases"><h2><span>Comment</span></h2></div><div id="comments" class="comments-area"></div></div>
</article>`;
  return layout(ctx, {
    title: `${series.title} - ${SITE_NAME}`,
    canonical: url,
    bodyClass: `anime-template-default single single-anime postid-${series.id}`,
    main,
  });
}

import { padEpisode, recommendations, type EpisodeItem } from '../catalog.js';
import { SITE_NAME } from '../dataset.js';
import { downloadsOf, longDate, serversOf, siteDate, siteDatetime, type EpisodeLookup } from '../episodes.js';
import { seriesCard } from './card.js';
import { absolute, catalogOf, seriesUrl, type PageContext } from './context.js';
import { breadcrumb, downloadBlocks, infoRow, termLink } from './detailParts.js';
import { text } from './html.js';
import { posterImg } from './images.js';
import { layout } from './layout.js';

/**
 * An episode page `/{slug}/`: the title block (inside the player block, or after it on the sister
 * site), the player with its default embed, the server drop-down (base64 iframe tags, or links to
 * the site's server pages), Prev / All Episodes / Next (a `span.nolink` at either end), the
 * series' episode list, the downloads, the series box and recommended series cards.
 */

/** What the drop-down's option holds: base64 of the iframe tag. */
function mirrorValue(src: string): string {
  return Buffer.from(`<iframe src="${src}" frameborder="0" width="100%" height="400" allowfullscreen="true"></iframe>`).toString('base64');
}

function navButton(ctx: PageContext, item: EpisodeItem | undefined, rel: 'prev' | 'next'): string {
  const label =
    rel === 'prev'
      ? '<i class="fas fa-angle-left"></i><span class="tex">Prev</span>'
      : '<span class="tex">Next</span><i class="fas fa-angle-right"></i>';
  return item === undefined
    ? `<div class="nvs"><span class="nolink">${label}</span></div>`
    : `<div class="nvs"><a href="${absolute(ctx, item.path)}" aria-label="${rel}" rel="${rel}">${label}</a></div>`;
}

/** The `h3` installs print only "Eps N - date" under the title, and an empty `title` on the link. */
function episodeList(ctx: PageContext, list: readonly EpisodeItem[]): string {
  const heading = ctx.variant.episodeListHeading;
  const items = list.map((item, index) => {
    const number = item.episode === null ? 'Movie' : `Eps ${padEpisode(item.episode)}`;
    const line =
      heading === 'h3'
        ? `${number} - ${longDate(siteDate(item.publishedAt))}`
        : `${number} - ${text(item.series.title)} - ${longDate(siteDate(item.publishedAt))}`;
    return `<li data-id="${item.series.id + index + 1}"><a href="${absolute(ctx, item.path)}" itemprop="url"${heading === 'h3' ? ' title=""' : ''}>
<div class="thumbnel">${posterImg(ctx, { path: item.series.poster, title: ctx.variant.episodeListThumbTitle ? item.title : null, alt: item.series.title, index, width: 150, height: 84 })}</div>
<div class="playinfo"><${heading}>${text(item.title)}</${heading}><span>${line}</span></div>
</a></li>`;
  });
  return `<div class="episodelist"><ul>\n${items.join('\n')}\n</ul></div>`;
}

/** The type badge and the sub label: nested on the real site, side by side on the classic install. */
function typeAndSubBadges(ctx: PageContext, type: string | null, sub: string | null): string {
  const label = sub === null ? '' : `<span class="lg">${sub}</span>`;
  if (type === null) return label;
  return ctx.variant.episodeSubInsideType ? `<span class="epx"> ${type} ${label}</span>` : `<span class="epx"> ${type} </span>${label}`;
}

/** A server page of the site, `{episode}/v/N/`: the episode page playing its N-th server. */
export function serverPageUrl(ctx: PageContext, item: EpisodeItem, server: number): string {
  return `${absolute(ctx, item.path)}v/${server}/`;
}

/** What the drop-down's options hold: base64 of an iframe tag, or (sister site) links to the site's server pages. */
function serverOptions(ctx: PageContext, item: EpisodeItem): string[] {
  return serversOf(item).map((server, position) => {
    const value = ctx.variant.serverOptions === 'link' ? serverPageUrl(ctx, item, position + 1) : mirrorValue(server.src);
    return `<option value="${value}" data-index="${position + 1}">${text(server.name)}</option>`;
  });
}

/** `server`: the server a `{episode}/v/N/` page plays (1-based); the episode page plays the first. */
export function episodePage(ctx: PageContext, { item, list, index }: EpisodeLookup, server = 1): string {
  const { series } = item;
  const url = absolute(ctx, item.path);
  const allEpisodes = seriesUrl(ctx, series);
  const embed = serversOf(item)[server - 1]?.src ?? '';
  const episodeMeta = item.episode === null ? '' : `<meta itemprop="episodeNumber" content="${padEpisode(item.episode)}">`;
  const titleBlock = `<div class="item meta">
<div class="tb">${posterImg(ctx, { path: series.poster, title: item.title, index: 0, width: 150, height: 212 })}</div>
<div class="lm">
<div class="title-section"><h1 class="entry-title" itemprop="name">${text(item.title)}</h1></div>
${episodeMeta}
${typeAndSubBadges(ctx, series.type, series.sub)}
<span class="year">${series.sub === null ? '' : `<i class="status ${series.sub}">${series.sub}</i> `}Released on <span class="updated">${longDate(siteDate(item.publishedAt))}</span> · Posted by <span class="vcard author"><b class="fn"><a href="${ctx.origin}/author/admin/">admin</a></b></span> · series <a href="${allEpisodes}">${text(series.title)}</a></span>
</div>
</div>`;
  const inside = ctx.variant.episodeTitleBlock === 'inside';
  const main = `<article id="post-${series.id + index + 1}" class="post-${series.id + index + 1} post type-post hentry" itemscope="itemscope" itemtype="http://schema.org/Episode">
${breadcrumb([
  ['Home', `${ctx.origin}/`],
  [series.title, allEpisodes],
  [item.title, url],
])}
<div class="megavid">
<div class="mvelement">
${inside ? titleBlock : ''}
<div class="video-content"><div id="embed_holder" class="lowvid"><div class="player-embed" id="pembed"><iframe src="${embed}" frameborder="0" width="100%" height="400" allowfullscreen="true"></iframe></div></div></div>
<div class="item video-nav">
<div class="mobius">
<select class="mirror" name="mirror" onchange="loadMirror(this)">
<option value="">Select Video Server</option>
${serverOptions(ctx, item).join('\n')}
</select>
</div>
</div>
<div class="naveps bignav">
${navButton(ctx, list[index + 1], 'prev')}
<div class="nvs nvsc"><a href="${allEpisodes}" aria-label="All Episodes"><i class="fas fa-list"></i><span class="tex">All Episodes</span></a></div>
${navButton(ctx, list[index - 1], 'next')}
</div>
</div>
</div>
${inside ? '' : titleBlock}
<div id="mobilepisode"><div id="singlepisode">
<div class="headlist"><div class="thumb"><a href="${allEpisodes}">${posterImg(ctx, { path: series.poster, title: series.title, index: 0, width: 65, height: 85 })}</a></div><div class="det"><h3><a href="${allEpisodes}">${text(series.title)}</a></h3><span><i>${series.status}</i> - ${item.episode === null ? '1' : padEpisode(item.episode)} / ${list.length}</span></div></div>
${episodeList(ctx, list)}
</div></div>
<div class="entry-content"><div class="bixbox infx"><p>Nonton ${text(item.title)} di ${SITE_NAME}. Download ${text(item.title)} sub indo.</p></div></div>
<div class="bixbox">
<div class="releases"><h3>Download ${text(item.title)}</h3></div>
${downloadBlocks(downloadsOf(item))}
</div>
<div class="single-info bixbox">
<div class="thumb">${posterImg(ctx, { path: series.poster, title: series.title, index: 0 })}</div>
<div class="infox"><div class="infolimit"><h2 itemprop="partOfSeries">${text(series.title)}</h2></div>
<div class="info-content"><div class="spe">${infoRow('Status', series.status)}${series.type === null ? '' : infoRow('Type', series.type)}</div>
<div class="genxed">${series.genres.map((genre) => termLink(ctx, '/genres/', genre)).join('')}</div>
<div class="desc mindes">${text(series.synopsis)}<span class="colap"><a href="${allEpisodes}">more</a></span></div></div></div>
</div>
<div class="bixbox"><div class="releases"><h3>Recommended Series</h3></div><div class="listupd">
${(recommendations(catalogOf(ctx))[0]?.items ?? [])
  .slice(0, 5)
  .map((other, position) => seriesCard(ctx, other, position))
  .join('\n')}
</div></div>
<meta itemprop="author" content="admin"><meta itemprop="datePublished" content="${siteDatetime(item.publishedAt)}"><meta itemprop="dateModified" content="${siteDatetime(item.publishedAt)}">
</article>`;
  return layout(ctx, {
    title: `${item.title} - ${SITE_NAME}`,
    canonical: url,
    bodyClass: `post-template-default single single-post postid-${series.id + index + 1}`,
    main,
  });
}

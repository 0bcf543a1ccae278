import { padEpisode, type EpisodeItem } from '../catalog.js';
import type { Series } from '../dataset.js';
import { absolute, seriesUrl, type PageContext } from './context.js';
import { attr, text } from './html.js';
import { posterImg } from './images.js';

/**
 * The theme's one card (`article.bs`), in its series and episode forms. Badges follow the data
 * (no type term → no `.typez`, no sub → no `.sb`); image markup and whitespace inside `.tt` rotate
 * with the card's position, as they vary across the real site.
 */

interface CardInput {
  readonly series: Series;
  readonly href: string;
  /** `a.tip[title]` and `h2`: the series title, or the episode post's title. */
  readonly linkTitle: string;
  readonly epx: string;
  readonly index: number;
}

// Real markup has stray newlines and tabs around the `.tt` text node.
const TITLE_SPACING: readonly ((title: string) => string)[] = [
  (title) => `\n ${title} `,
  (title) => `\n\t\t\t\t${title}\n\t\t\t\t`,
  (title) => title,
];

function card(ctx: PageContext, input: CardInput): string {
  const { series, index } = input;
  const spacing = TITLE_SPACING[index % TITLE_SPACING.length] ?? ((title: string) => title);
  const limit = [
    series.status === 'Completed' ? '<div class="status Completed">Completed</div>' : '',
    series.hot ? '<div class="hotbadge"><i class="fas fa-fire-alt"></i></div>' : '',
    series.type === null ? '' : `<div class="typez ${series.type}">${series.type}</div>`,
    '<div class="ply"><i class="far fa-play-circle"></i></div>',
    `<div class="bt"> <span class="epx">${text(input.epx)}</span>${series.sub === null ? '' : ` <span class="sb ${series.sub}">${series.sub}</span>`}</div>`,
    posterImg(ctx, { path: series.poster, title: input.linkTitle, index }),
  ].filter(Boolean);
  return `<article class="bs" itemscope="itemscope" itemtype="http://schema.org/CreativeWork">
<div class="bsx">
<a href="${input.href}" itemprop="url" title="${attr(input.linkTitle)}" class="tip" rel="${series.id}">
<div class="limit">
${limit.join('\n')}
</div>
<div class="tt">${spacing(text(series.title))}<h2 itemprop="headline">${text(input.linkTitle)}</h2>
</div>
</a>
</div>
</article>`;
}

/** Search, lists, recommendations: links to the series page, `.epx` is the status. */
export function seriesCard(ctx: PageContext, series: Series, index: number): string {
  return card(ctx, { series, href: seriesUrl(ctx, series), linkTitle: series.title, epx: series.status, index });
}

/** Home Popular Today / Latest Release: links to the episode post, `.epx` is "Ep 124" (movies: "Movie"). */
export function episodeCard(ctx: PageContext, item: EpisodeItem, index: number): string {
  const epx = item.episode === null ? 'Movie' : `Ep ${padEpisode(item.episode)}`;
  return card(ctx, { series: item.series, href: absolute(ctx, item.path), linkTitle: item.title, epx, index });
}

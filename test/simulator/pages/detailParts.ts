import type { Term } from '../dataset.js';
import type { DownloadGroup } from '../episodes.js';
import { absolute, type PageContext } from './context.js';
import { attr, text } from './html.js';

// Markup the series page and the episode page share: breadcrumb, info rows, term links, downloads.

/** A taxonomy term link under `base` (`/genres/`, `/studio/`, `/network/`, `/season/`, `/country/`, `/tag/`). */
export function termLink(ctx: PageContext, base: string, term: Term): string {
  return `<a href="${absolute(ctx, `${base}${term.slug}/`)}" rel="tag">${text(term.name)}</a>`;
}

/** One `.spe` row: `<span><b>Label:</b> value</span>`; `className` for the theme's `split` / `author vcard` rows. */
export function infoRow(label: string, valueHtml: string, className?: string): string {
  return `<span${className === undefined ? '' : ` class="${className}"`}><b>${label}:</b> ${valueHtml}</span>`;
}

export function breadcrumb(crumbs: readonly (readonly [name: string, url: string])[]): string {
  const items = crumbs.map(
    ([name, url], index) =>
      `<li itemprop="itemListElement" itemscope itemtype="http://schema.org/ListItem"><a itemprop="item" href="${url}"><span itemprop="name">${text(name)}</span></a><meta itemprop="position" content="${index + 1}" /></li>`,
  );
  return `<div class="ts-breadcrumb bixbox"><ol itemscope itemtype="http://schema.org/BreadcrumbList">${items.join(' › ')}</ol></div>`;
}

/** `div.mctnx > div.soraddlx` blocks: a title, then a row of host links per quality. */
export function downloadBlocks(groups: readonly DownloadGroup[]): string {
  const blocks = groups.map(
    (group) => `<div class="soraddlx soradlg">
<div class="sorattlx"><h3>${text(group.title)}</h3></div>
${group.qualities
  .map(
    (row) =>
      `<div class="soraurlx"><strong>${row.quality}</strong>${row.links.map((link) => ` <a href="${attr(link.url)}" target="_blank" rel="noopener">${text(link.host)}</a>`).join(' |')}</div>`,
  )
  .join('\n')}
</div>`,
  );
  return `<div class="mctnx">\n${blocks.join('\n')}\n</div>`;
}

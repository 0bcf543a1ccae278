/** The theme's two pagers. */

/**
 * WordPress `paginate_links` as the theme calls it (end_size 1, mid_size 2, "« Previous" /
 * "Next »"), wrapped in `div.pagination`. Empty when there is a single page, like WordPress.
 */
export function paginateLinks(current: number, total: number, pageUrl: (page: number) => string): string {
  if (total < 2) return '';
  const endSize = 1;
  const midSize = 2;
  const links: string[] = [];
  if (current > 1) links.push(`<a class="prev page-numbers" href="${pageUrl(current - 1)}">&laquo; Previous</a>`);
  let dots = false;
  for (let n = 1; n <= total; n++) {
    if (n === current) {
      links.push(`<span aria-current="page" class="page-numbers current">${n}</span>`);
      dots = true;
    } else if (n <= endSize || (n >= current - midSize && n <= current + midSize) || n > total - endSize) {
      links.push(`<a class="page-numbers" href="${pageUrl(n)}">${n}</a>`);
      dots = true;
    } else if (dots) {
      links.push('<span class="page-numbers dots">&hellip;</span>');
      dots = false;
    }
  }
  if (current < total) links.push(`<a class="next page-numbers" href="${pageUrl(current + 1)}">Next &raquo;</a>`);
  return `<div class="pagination">${links.join('\n')}</div>`;
}

/** The theme's prev/next pager (`div.hpage > a.l`, `a.r`); a missing side has no link. */
export function hpage(previous: string | null, next: string | null, labels: { readonly previous: string; readonly next: string }): string {
  const left = previous === null ? '' : `<a href="${previous}" class="l"><i class="fas fa-angle-left"></i> ${labels.previous}</a>`;
  const right = next === null ? '' : `<a href="${next}" class="r">${labels.next} <i class="fas fa-angle-right"></i></a>`;
  return `<div class="hpage">${left}${right}</div>`;
}

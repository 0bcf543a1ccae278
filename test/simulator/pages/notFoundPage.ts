import { SITE_NAME } from '../dataset.js';
import type { PageContext } from './context.js';
import { layout } from './layout.js';

/** The theme's 404 page: full chrome and sidebar around a short notice. */
export function notFoundPage(ctx: PageContext): string {
  const main = `<div class="bixbox">
<div class="releases"><h1><span>Error 404</span></h1></div>
<div class="page">
<div class="error404">
<h2>404</h2>
<p>Oops! That page can&#8217;t be found. It looks like nothing was found at this location. Maybe try a search?</p>
<a href="${ctx.origin}/" class="button">Back to Home</a>
</div>
</div>
</div>`;
  return layout(ctx, { title: `Page not found - ${SITE_NAME}`, canonical: null, bodyClass: 'error404', main });
}

import type { Genre, Series } from '../dataset.js';
import { DEFAULT_CATALOG, type LiveCatalog } from '../liveCatalog.js';
import type { Variant } from '../variant.js';

/** What every page builder needs: the site's own origin (WordPress prints absolute URLs) and the install variant. */
export interface PageContext {
  /** e.g. `http://127.0.0.1:43123` */
  readonly origin: string;
  /** `host:port`, as Jetpack Photon URLs embed it. */
  readonly host: string;
  readonly variant: Variant;
  /** The series the site lists now; the default dataset when absent. */
  readonly catalog?: LiveCatalog;
}

export function catalogOf(ctx: PageContext): LiveCatalog {
  return ctx.catalog ?? DEFAULT_CATALOG;
}

export function absolute(ctx: PageContext, path: string): string {
  return `${ctx.origin}${path}`;
}

export function seriesUrl(ctx: PageContext, series: Series): string {
  return `${ctx.origin}${ctx.variant.seriesBase}${series.slug}/`;
}

export function genreUrl(ctx: PageContext, genre: Genre): string {
  return `${ctx.origin}/genres/${genre.slug}/`;
}

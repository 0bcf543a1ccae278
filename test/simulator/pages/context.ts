import { SERIES, type Genre, type Series } from '../dataset.js';
import { DEFAULT_CATALOG, LiveCatalog } from '../liveCatalog.js';
import { seriesOfVariant, type Variant, type VariantName } from '../variant.js';

/** What every page builder needs: the site's own origin (WordPress prints absolute URLs) and the theme profile. */
export interface PageContext {
  /** e.g. `http://127.0.0.1:43123` */
  readonly origin: string;
  /** `host:port`, as Jetpack Photon URLs embed it. */
  readonly host: string;
  readonly variant: Variant;
  /** The series the site lists now; the profile's default catalog when absent. */
  readonly catalog?: LiveCatalog;
}

const DEFAULT_CATALOGS = new Map<VariantName, LiveCatalog>();

/** The default dataset as a profile's site lists it, never changed. */
function defaultCatalogOf(variant: Variant): LiveCatalog {
  if (Object.keys(variant.laterEpisodes).length === 0) return DEFAULT_CATALOG;
  let catalog = DEFAULT_CATALOGS.get(variant.name);
  if (catalog === undefined) {
    catalog = new LiveCatalog(seriesOfVariant(variant, SERIES));
    DEFAULT_CATALOGS.set(variant.name, catalog);
  }
  return catalog;
}

export function catalogOf(ctx: PageContext): LiveCatalog {
  return ctx.catalog ?? defaultCatalogOf(ctx.variant);
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

/**
 * The page as a profile that writes relative links serves it: every `href` and `action` into the
 * site loses its origin, as a relative-URL plugin rewrites WordPress's output. Image sources stay.
 */
export function withProfileLinks(ctx: PageContext, html: string): string {
  if (ctx.variant.links === 'absolute') return html;
  return html.replaceAll(`href="${ctx.origin}/`, 'href="/').replaceAll(`action="${ctx.origin}/`, 'action="/');
}

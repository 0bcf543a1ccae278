import type { Variant } from './variant.js';

/**
 * Maps a request URL onto the page kinds the simulated WordPress site has, with the paths of its
 * theme profile: a series path the profile does not use is a 404, as on WordPress. Pure, so it is
 * easy to test.
 */

type ListPath = '/seri/' | '/anime/';

/** What of a profile decides its routes. */
export type RoutePaths = Pick<Variant, 'seriesBase' | 'listPath' | 'serverOptions'>;

export type Route =
  | { readonly kind: 'home'; readonly page: number }
  | { readonly kind: 'search'; readonly query: string; readonly page: number }
  | { readonly kind: 'ongoing'; readonly page: number }
  | { readonly kind: 'seriesList'; readonly listPath: ListPath; readonly params: URLSearchParams }
  | { readonly kind: 'series'; readonly slug: string }
  /** `server`: the N-th video server's page `{episode}/v/N/` (sites whose server options are links), 1 otherwise. */
  | { readonly kind: 'episode'; readonly slug: string; readonly server: number }
  | { readonly kind: 'completed'; readonly page: number }
  | { readonly kind: 'term'; readonly taxonomy: 'genres' | 'studio' | 'network' | 'country'; readonly slug: string; readonly page: number }
  | { readonly kind: 'season'; readonly slug: string }
  | { readonly kind: 'schedule' }
  /** `letter` is the site's `show` value (`.`, `0-9`, `A`…), null for the whole list. */
  | { readonly kind: 'azList'; readonly letter: string | null; readonly page: number }
  /** Same-origin canonical redirect (WordPress `redirect_canonical`); `location` is a path plus query. */
  | { readonly kind: 'redirect'; readonly location: string }
  | { readonly kind: 'notFound' };

const PAGE_NUMBER = '([1-9][0-9]*)';
const HOME_PAGED = new RegExp(`^/page/${PAGE_NUMBER}(/?)$`);
const ONGOING = /^\/ongoing(\/?)$/;
const ONGOING_PAGED = new RegExp(`^/ongoing/page/${PAGE_NUMBER}(/?)$`);
const SERIES_LIST = /^\/(seri|anime)\/?$/;
const PREFIXED_SERIES_PAGE = /^\/(seri|anime)\/([^/]+)(\/?)$/;
const ROOT_PAGE = /^\/()([^/]+)(\/?)$/;
// Episode posts sit at the site root; every episode slug of the site ends this way.
const EPISODE = /^\/([^/]+-subtitle-indonesia)(\/?)$/;
const SERVER_PAGE = new RegExp(`^/([^/]+-subtitle-indonesia)/v/${PAGE_NUMBER}(/?)$`);
// Archives: `/{base}/` and, except season and schedule, `/{base}/page/N/`.
const ARCHIVE = new RegExp(`^/(completed|az-lists|schedule|(genres|studio|network|country|season)/([^/]+))(?:/page/${PAGE_NUMBER})?(/?)$`);

export function resolveRoute(url: URL, paths: RoutePaths): Route {
  const { pathname, search, searchParams } = url;
  const query = searchParams.get('s');

  if (pathname === '/') return query === null ? { kind: 'home', page: 1 } : { kind: 'search', query, page: 1 };

  const home = HOME_PAGED.exec(pathname);
  if (home !== null) {
    const page = Number(home[1]);
    if (page === 1) return { kind: 'redirect', location: `/${search}` };
    if (home[2] === '') return { kind: 'redirect', location: `/page/${page}/${search}` };
    return query === null ? { kind: 'home', page } : { kind: 'search', query, page };
  }

  const ongoing = ONGOING.exec(pathname);
  if (ongoing !== null) return ongoing[1] === '' ? { kind: 'redirect', location: `/ongoing/${search}` } : { kind: 'ongoing', page: 1 };

  const ongoingPaged = ONGOING_PAGED.exec(pathname);
  if (ongoingPaged !== null) {
    const page = Number(ongoingPaged[1]);
    if (page === 1) return { kind: 'redirect', location: `/ongoing/${search}` };
    if (ongoingPaged[2] === '') return { kind: 'redirect', location: `/ongoing/page/${page}/${search}` };
    return { kind: 'ongoing', page };
  }

  // The quick filter submits to its list without a slash; the theme answers it directly. The home
  // page's View All links hard-code `/anime/`, so every install answers that list too.
  const list = SERIES_LIST.exec(pathname);
  if (list !== null) {
    const listPath: ListPath = list[1] === 'anime' ? '/anime/' : '/seri/';
    return listPath === paths.listPath || listPath === '/anime/'
      ? { kind: 'seriesList', listPath, params: searchParams }
      : { kind: 'notFound' };
  }

  const episode = EPISODE.exec(pathname);
  if (episode !== null) {
    const [path, slug = '', slash] = episode;
    return slash === '' ? { kind: 'redirect', location: `${path}/${search}` } : { kind: 'episode', slug, server: 1 };
  }

  const serverPage = paths.serverOptions === 'link' ? SERVER_PAGE.exec(pathname) : null;
  if (serverPage !== null) {
    const [path, slug = '', server, slash] = serverPage;
    return slash === '' ? { kind: 'redirect', location: `${path}/${search}` } : { kind: 'episode', slug, server: Number(server) };
  }

  const archive = ARCHIVE.exec(pathname);
  if (archive !== null) return archiveRoute(archive, search, searchParams);

  // Last: on an install with series at the root, any other one-segment path may be a series.
  const series = (paths.seriesBase === '/' ? ROOT_PAGE : PREFIXED_SERIES_PAGE).exec(pathname);
  if (series !== null && (paths.seriesBase === '/' || `/${series[1]}/` === paths.seriesBase)) {
    const [path, , slug = '', slash] = series;
    return slash === '' ? { kind: 'redirect', location: `${path}/${search}` } : { kind: 'series', slug };
  }

  return { kind: 'notFound' };
}

/** WordPress redirects `page/1/` and a missing trailing slash to the canonical archive URL. */
function archiveRoute([, base = '', taxonomy, rawSlug, rawPage, slash]: RegExpExecArray, search: string, params: URLSearchParams): Route {
  const page = Number(rawPage ?? 1);
  if (page === 1 && rawPage !== undefined) return { kind: 'redirect', location: `/${base}/${search}` };
  if (slash === '') return { kind: 'redirect', location: `/${base}/${rawPage === undefined ? '' : `page/${page}/`}${search}` };
  if (base === 'completed') return { kind: 'completed', page };
  if (base === 'az-lists') return { kind: 'azList', letter: params.get('show') || null, page };
  const slug = decodedSlug(rawSlug);
  if (taxonomy !== undefined && taxonomy !== 'season' && slug !== null)
    return { kind: 'term', taxonomy: taxonomy as 'genres' | 'studio' | 'network' | 'country', slug, page };
  // Season pages and the schedule have no further pages.
  if (rawPage !== undefined) return { kind: 'notFound' };
  if (base === 'schedule') return { kind: 'schedule' };
  return taxonomy === 'season' && slug !== null ? { kind: 'season', slug } : { kind: 'notFound' };
}

function decodedSlug(raw: string | undefined): string | null {
  try {
    return raw === undefined ? null : decodeURIComponent(raw);
  } catch {
    return null;
  }
}

import type { Logger } from '../config/logger.js';
import { isSeriesPage, readListPath, readSeriesLink, seriesLinkOf } from '../parsers/sitePaths.js';
import type { FetchPriority, UpstreamClient, UpstreamPage } from './client.js';
import { UpstreamNotFoundError } from './errors.js';
import { pageText } from './siteLinks.js';
import type { OriginPaths, SitePathsStore } from './sitePathsStore.js';

// The paths of a site on the theme, learned from the site rather than configured: the series list
// is where the quick-filter form submits, series pages are where the site links its series, and a
// series asked for before either is known is looked up where installs of the theme put them. Kept
// per origin (a moved site may change its settings with its domain), and learned again when a
// path that served pages answers 404.

/** The paths upstream page paths are built on. */
export interface UpstreamSite {
  /** Where series pages sit: "/seri/", "/anime/", or "/" for "/{slug}/". */
  seriesPath: string;
  /** The series list and its filter: "/seri/", "/anime/". */
  listPath: string;
}

/** Which path of the site a page's path is built on. */
export type SitePathKind = keyof typeof KIND_PATH;

const KIND_PATH = { series: 'seriesPath', list: 'listPath' } as const satisfies Record<string, keyof UpstreamSite>;

/** Where installs of the theme put series pages, in the order a series is looked up while its path is unknown. */
const SERIES_PATH_CANDIDATES = ['/seri/', '/anime/', '/'] as const;
/** The theme's own list path, for a site without a quick-filter form whose series sit at its root. */
const THEME_LIST_PATH = '/anime/';

/** A path in use, for /health/upstream and /status: learned (how, when) or set by a variable. */
export interface PathInUse {
  path: string;
  how: string;
  /** Null for a path set by a variable. */
  learnedAt: string | null;
}

export interface SitePathsStatus {
  /** The origin the paths are of: the one pages are fetched from now. */
  origin: string;
  /** Null while not learned yet. */
  series: PathInUse | null;
  list: PathInUse | null;
}

export interface SitePaths {
  /**
   * The page at `pathOf(site)` on the current origin, `site` being its paths: those learned (or set
   * by a variable); learned first when `needs` names a path not known yet. A 404 under a learned
   * path checks, at most once per recheck interval, whether the path moved, and follows it.
   */
  fetchPage(needs: SitePathKind | null, pathOf: (site: UpstreamSite) => string, priority: FetchPriority): Promise<UpstreamPage>;
  /** Whether a fetch that `needs` a path would look it up first: the path is neither set nor learned here yet. */
  unknown(needs: SitePathKind): boolean;
  /**
   * Learns `needs` now, when neither kept nor learned yet, by one read of the home page: a paced
   * caller (the crawler) makes the lookup a request of its own instead of one more inside its next.
   */
  learn(needs: SitePathKind, priority: FetchPriority): Promise<void>;
  /** The paths pages are built on now; a path not known yet is the theme's first guess. */
  site(): UpstreamSite;
  status(): SitePathsStatus;
}

export interface SitePathsOptions {
  upstream: UpstreamClient;
  store: SitePathsStore;
  /** UPSTREAM_SERIES_PATH and UPSTREAM_LIST_PATH: paths the service uses without learning them. */
  overrides: { series?: string | undefined; list?: string | undefined };
  logger: Logger;
  /** How often, at most, per origin, a 404 under a learned path makes the service check whether the path moved. */
  recheckMs?: number;
  now?: () => number;
}

/** What this instance knows of one origin, and the lookups under way there. */
interface OriginState {
  paths: OriginPaths;
  /** The one lookup of each path under way; concurrent requests wait for it rather than start their own. */
  lookups: Partial<Record<SitePathKind, Promise<UpstreamPage | null>>>;
  lastRecheck: Record<SitePathKind, number>;
  /** When a series lookup last found no series page anywhere (a series that does not exist). */
  seriesLookupFailedAt: number | null;
  /** When the home page was last read for the series path after such a lookup. */
  homeReadAt: number;
}

const OVERRIDE_VARIABLE: Record<SitePathKind, string> = { series: 'UPSTREAM_SERIES_PATH', list: 'UPSTREAM_LIST_PATH' };

export function createSitePaths(options: SitePathsOptions): SitePaths {
  const { upstream, store, logger } = options;
  const now = options.now ?? Date.now;
  const recheckMs = options.recheckMs ?? 60_000;
  const states = new Map<string, OriginState>();

  function stateOf(origin: string): OriginState {
    let state = states.get(origin);
    if (state === undefined) {
      state = {
        paths: { origin, series: null, list: null },
        lookups: {},
        lastRecheck: { series: Number.NEGATIVE_INFINITY, list: Number.NEGATIVE_INFINITY },
        seriesLookupFailedAt: null,
        homeReadAt: Number.NEGATIVE_INFINITY,
      };
      states.set(origin, state);
      // Shown by /health/upstream and /status from the start, before any request needs them.
      void recall(state);
    }
    return state;
  }

  /**
   * What is kept for the origin (DATA_DIR, or what another instance learned, through Redis), read
   * before each lookup: a path learned elsewhere in the meantime spares the lookup.
   */
  async function recall(state: OriginState): Promise<void> {
    const kept = await store.read(state.paths.origin);
    state.paths.series ??= kept?.series ?? null;
    state.paths.list ??= kept?.list ?? null;
  }

  const known = (state: OriginState, kind: SitePathKind): string | null => options.overrides[kind] ?? state.paths[kind]?.path ?? null;

  function siteOf(state: OriginState): UpstreamSite {
    return {
      seriesPath: known(state, 'series') ?? SERIES_PATH_CANDIDATES[0],
      listPath: known(state, 'list') ?? listPathWithoutForm(state),
    };
  }

  /** The list path of a site without a quick-filter form: its series path, unless series sit at its root. */
  function listPathWithoutForm(state: OriginState): string {
    const series = known(state, 'series');
    return series !== null && series !== '/' ? series : THEME_LIST_PATH;
  }

  function learn(state: OriginState, kind: SitePathKind, path: string, how: string, witness: string | null = null): void {
    if (options.overrides[kind] !== undefined) return;
    const previous = state.paths[kind];
    if (previous?.path === path && previous.witness === witness) return;
    state.paths[kind] = { path, how, learnedAt: new Date(now()).toISOString(), witness };
    logger.info({ origin: state.paths.origin, kind, path, how, previous: previous?.path ?? null }, 'upstream path learned');
    void store.write({ ...state.paths });
  }

  /**
   * What a fetched page says of the paths not known yet: the quick-filter form's action, and where
   * it links a series. Once both are known, pages are not read for them at all.
   */
  function learnFrom(state: OriginState, page: UpstreamPage): void {
    if (known(state, 'series') !== null && known(state, 'list') !== null) return;
    const html = pageText(page);
    if (known(state, 'series') === null) {
      const link = readSeriesLink(html, page.url);
      if (link !== null) learn(state, 'series', link.seriesPath, `series links on ${page.url}`, link.slug);
    }
    if (known(state, 'list') === null) {
      const listPath = readListPath(html, page.url);
      if (listPath !== null) learn(state, 'list', listPath, `the quick-filter form of ${page.url}`);
      // A whole page of the site without the form: its list path is derived once its series path is known.
      else if (known(state, 'series') !== null)
        learn(state, 'list', listPathWithoutForm(state), `no quick-filter form on ${page.url}; derived from the series path`);
    }
  }

  /** One lookup per origin and path at a time: a request that finds one under way waits for it. */
  async function once(state: OriginState, kind: SitePathKind, lookup: () => Promise<UpstreamPage | null>): Promise<UpstreamPage | null> {
    const running = state.lookups[kind];
    if (running !== undefined) {
      await running.catch(() => undefined);
      return null;
    }
    const started = lookup().finally(() => delete state.lookups[kind]);
    state.lookups[kind] = started;
    return started;
  }

  /** The home page, read for both paths: for a list asked before its path is known. */
  function lookupFromHome(state: OriginState, priority: FetchPriority): Promise<UpstreamPage | null> {
    return once(state, 'list', async () => {
      const page = await upstream.fetchPage('/', { priority });
      learnFrom(state, page);
      if (known(state, 'list') === null)
        learn(state, 'list', listPathWithoutForm(state), `no quick-filter form on ${page.url}; the theme's default`);
      return null;
    });
  }

  /**
   * A series at each of `candidates` in turn, until one answers with its page: it is the answer,
   * and its path is learned. Throws the first 404 when none does.
   */
  async function probeSeries(
    state: OriginState,
    pathOf: (site: UpstreamSite) => string,
    candidates: readonly string[],
    why: string,
    priority: FetchPriority,
  ) {
    let notFound: UpstreamNotFoundError | undefined;
    for (const candidate of candidates) {
      const path = pathOf({ ...siteOf(state), seriesPath: candidate });
      try {
        const page = await upstream.fetchPage(path, { priority });
        // Under a prefix the page answers for the series, whatever its layout (the parser judges it);
        // at the root it may be an episode post or another page of WordPress.
        if (candidate === '/' && !isSeriesPage(pageText(page))) continue;
        const served = seriesLinkOf(page.url, page.url);
        if (served !== null) learn(state, 'series', served.seriesPath, `${why}${page.url} is a series page`, served.slug);
        learnFrom(state, page);
        return page;
      } catch (error) {
        if (!(error instanceof UpstreamNotFoundError)) throw error;
        notFound ??= error;
      }
    }
    throw (
      notFound ??
      new UpstreamNotFoundError(
        `No series page at ${candidates.map((candidate) => pathOf({ ...siteOf(state), seriesPath: candidate })).join(', ')}`,
        upstream.origin,
      )
    );
  }

  /** A series asked for while its path is unknown: looked up under each candidate, once per origin at a time. */
  async function lookupSeries(state: OriginState, pathOf: (site: UpstreamSite) => string, priority: FetchPriority): Promise<UpstreamPage> {
    // After a lookup that found no series page anywhere (a series that does not exist), misses do not
    // cost three fetches each: the home page's series links are read once, and until the interval
    // is over a series is fetched at the first guess, whose page is read for the path too.
    const failedAt = state.seriesLookupFailedAt;
    if (failedAt !== null && now() - failedAt < recheckMs) {
      if (state.homeReadAt < failedAt) {
        state.homeReadAt = now();
        await lookupFromHome(state, priority).catch(() => undefined);
      }
      return fetchKnown(state, 'series', pathOf, priority);
    }
    let answer: UpstreamPage | null;
    try {
      answer = await once(state, 'series', () => probeSeries(state, pathOf, SERIES_PATH_CANDIDATES, '', priority));
    } catch (error) {
      if (error instanceof UpstreamNotFoundError) state.seriesLookupFailedAt = now();
      throw error;
    }
    // Someone else's lookup ran: the path is known now, or this series is looked up in its turn.
    if (answer === null)
      return known(state, 'series') === null ? lookupSeries(state, pathOf, priority) : fetchKnown(state, 'series', pathOf, priority);
    return answer;
  }

  async function fetchKnown(
    state: OriginState,
    needs: SitePathKind | null,
    pathOf: (site: UpstreamSite) => string,
    priority: FetchPriority,
  ) {
    const site = siteOf(state);
    try {
      const page = await upstream.fetchPage(pathOf(site), { priority });
      if (known(state, 'series') === null || known(state, 'list') === null) learnFrom(stateOf(new URL(page.url).origin), page);
      return page;
    } catch (error) {
      // Only a learned path can have moved; a variable's is the operator's to change.
      if (
        !(error instanceof UpstreamNotFoundError) ||
        needs === null ||
        options.overrides[needs] !== undefined ||
        state.paths[needs] === null
      )
        throw error;
      const moved = await movedPath(state, needs, pathOf, site, error, priority);
      if (moved === null) throw error;
      return moved;
    }
  }

  /**
   * A 404 under a learned path, at most once per recheck interval: another instance may have
   * learned the new path already; else, for series, the page seen under the path says whether the
   * path still serves pages (this series does not exist) or not (the site moved its series, looked
   * up again); for the list, the home page's form is read again. Null when nothing moved.
   */
  async function movedPath(
    state: OriginState,
    kind: SitePathKind,
    pathOf: (site: UpstreamSite) => string,
    site: UpstreamSite,
    notFound: UpstreamNotFoundError,
    priority: FetchPriority,
  ) {
    if (now() - state.lastRecheck[kind] < recheckMs || state.lookups[kind] !== undefined) return null;
    state.lastRecheck[kind] = now();
    const before = site[KIND_PATH[kind]];
    const kept = (await store.read(state.paths.origin))?.[kind];
    if (kept && kept.path !== before && kept.learnedAt > (state.paths[kind]?.learnedAt ?? '')) {
      state.paths[kind] = kept;
      return upstream.fetchPage(pathOf(siteOf(state)), { priority });
    }
    if (kind === 'list') {
      const home = await upstream.fetchPage('/', { priority }).catch(() => null);
      const listPath = home === null ? null : readListPath(pageText(home), home.url);
      if (home === null || listPath === null || listPath === before) return null;
      learn(state, 'list', listPath, `${before} answered 404; the quick-filter form of ${home.url}`);
      return upstream.fetchPage(pathOf(siteOf(state)), { priority });
    }
    const learned = state.paths.series;
    const witness = learned?.witness ?? null;
    const witnessPath = witness === null ? null : `${before}${encodeURIComponent(witness)}/`;
    if (witnessPath !== null && witnessPath !== new URL(notFound.url).pathname) {
      try {
        await upstream.fetchPage(witnessPath, { priority });
        return null;
      } catch (error) {
        if (!(error instanceof UpstreamNotFoundError)) return null;
      }
    }
    const why = witnessPath === null ? `${before} answered 404; ` : `${witnessPath}, a series page, answered 404; `;
    const others = SERIES_PATH_CANDIDATES.filter((candidate) => candidate !== before);
    return once(state, 'series', () => probeSeries(state, pathOf, others, why, priority)).catch((error: unknown) => {
      if (error instanceof UpstreamNotFoundError) return null;
      throw error;
    });
  }

  async function fetchPage(
    needs: SitePathKind | null,
    pathOf: (site: UpstreamSite) => string,
    priority: FetchPriority,
  ): Promise<UpstreamPage> {
    const state = stateOf(upstream.origin);
    if (needs !== null && known(state, needs) === null && state.lookups[needs] === undefined) await recall(state);
    if (needs === 'series' && known(state, 'series') === null) return lookupSeries(state, pathOf, priority);
    if (needs === 'list' && known(state, 'list') === null) await lookupFromHome(state, priority);
    return fetchKnown(state, needs, pathOf, priority);
  }

  function inUse(state: OriginState, kind: SitePathKind): PathInUse | null {
    const override = options.overrides[kind];
    if (override !== undefined) return { path: override, how: `set by ${OVERRIDE_VARIABLE[kind]}`, learnedAt: null };
    const learned = state.paths[kind];
    return learned === null ? null : { path: learned.path, how: learned.how, learnedAt: learned.learnedAt };
  }

  return {
    fetchPage,
    unknown: (needs) => known(stateOf(upstream.origin), needs) === null,
    async learn(needs, priority) {
      const state = stateOf(upstream.origin);
      await recall(state);
      if (known(state, needs) === null) await lookupFromHome(state, priority);
    },
    site: () => siteOf(stateOf(upstream.origin)),
    status() {
      const state = stateOf(upstream.origin);
      return { origin: upstream.origin, series: inUse(state, 'series'), list: inUse(state, 'list') };
    },
  };
}

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/config/logger.js';
import { createFileSitePaths } from '../../../src/stores/sitePaths/file.js';
import type { UpstreamClient, UpstreamPage } from '../../../src/upstream/client.js';
import { UpstreamNotFoundError } from '../../../src/upstream/errors.js';
import { createSitePaths, type SitePaths, type UpstreamSite } from '../../../src/upstream/sitePaths.js';
import type { SitePathsStore } from '../../../src/upstream/sitePathsStore.js';
import { until } from '../../helpers/waiting.js';
import { CAFE, episodeMain, MOE, SISTER, seriesMain, themePage, type ThemeSite } from '../../helpers/themePages.js';

const ORIGIN = 'http://127.0.0.1:4000';
const SERIES = ['renegade-immortal', 'soul-land-2', 'martial-master'];

/** A site of the theme on ORIGIN: series pages under `site.seriesPath` (movable), its list, its home, episode posts at the root. */
function fakeSite(initial: ThemeSite) {
  const site = { ...initial };
  const requests: string[] = [];
  let pending = 0;
  const gate: { release: (() => void) | null } = { release: null };
  const upstream: UpstreamClient = {
    origin: ORIGIN,
    async fetchPage(path) {
      requests.push(path);
      if (gate.release === null) await Promise.resolve();
      else {
        pending++;
        await new Promise<void>((resolve) => setTimeout(resolve, 5));
      }
      const url = new URL(path, ORIGIN);
      const page = (html: string): UpstreamPage => ({
        url: url.href,
        status: 200,
        body: Buffer.from(html),
        servedBy: ORIGIN,
        siteOrigins: [ORIGIN],
        attempts: 1,
      });
      const { pathname } = url;
      if (pathname === '/') return page(themePage(site, '<div class="listupd"></div>', '/'));
      const listPath =
        site.filterAction === null
          ? site.seriesPath === '/'
            ? '/anime/'
            : site.seriesPath
          : `${new URL(site.filterAction, ORIGIN).pathname}/`;
      if (pathname === listPath) return page(themePage(site, '<div class="listupd"><article class="bs"></article></div>', listPath));
      const slug = pathname.slice(site.seriesPath.length).replace(/\/$/, '');
      if (pathname.startsWith(site.seriesPath) && SERIES.includes(slug))
        return page(themePage(site, seriesMain(site, slug, slug), pathname));
      if (/^\/[a-z0-9-]+-episode-\d+-subtitle-indonesia\/$/.test(pathname))
        return page(themePage(site, episodeMain(site, 'martial-master', pathname.slice(1, -1)), pathname));
      throw new UpstreamNotFoundError(`The upstream has no page at ${url.href}`, url.href);
    },
  };
  return { site, requests, upstream, pending: () => pending, gate };
}

function memoryStore(): SitePathsStore & { kept: Map<string, unknown> } {
  const kept = new Map<string, never>();
  return {
    kept,
    read: async (origin) => kept.get(origin) ?? null,
    write: async (paths) => void kept.set(paths.origin, structuredClone(paths) as never),
  };
}

const seriesPage = (slug: string) => (site: UpstreamSite) => `${site.seriesPath}${slug}/`;
const popularList = (site: UpstreamSite) => `${site.listPath}?order=popular&page=1`;
const logger = createLogger('silent');

function learner(
  upstream: UpstreamClient,
  store: SitePathsStore = memoryStore(),
  extra: Partial<Parameters<typeof createSitePaths>[0]> = {},
): SitePaths {
  return createSitePaths({ upstream, store, overrides: {}, logger, ...extra });
}

describe('paths learned from the site', () => {
  it.each([
    ['today’s site', CAFE, ['/seri/renegade-immortal/'], { series: '/seri/', list: '/seri/' }],
    [
      'the later snapshot',
      MOE,
      ['/seri/renegade-immortal/', '/anime/renegade-immortal/', '/renegade-immortal/'],
      { series: '/', list: '/anime/' },
    ],
    [
      'a sister site without the form',
      SISTER,
      ['/seri/renegade-immortal/', '/anime/renegade-immortal/'],
      { series: '/anime/', list: '/anime/' },
    ],
  ])('%s: a series asked first is looked up in turn, and a list after it costs no lookup', async (_name, theme, lookups, learned) => {
    const { upstream, requests } = fakeSite(theme);
    const paths = learner(upstream);
    const page = await paths.fetchPage('series', seriesPage('renegade-immortal'), 'user');
    expect(page.url).toBe(`${ORIGIN}${learned.series}renegade-immortal/`);
    expect(requests).toEqual(lookups);
    expect(paths.site()).toEqual({ seriesPath: learned.series, listPath: learned.list });

    await paths.fetchPage('list', popularList, 'user');
    await paths.fetchPage('series', seriesPage('soul-land-2'), 'user');
    expect(requests.slice(lookups.length)).toEqual([`${learned.list}?order=popular&page=1`, `${learned.series}soul-land-2/`]);
  });

  it('says how and when each path was learned', async () => {
    const { upstream } = fakeSite(SISTER);
    const paths = learner(upstream, memoryStore(), { now: () => Date.parse('2026-11-29T01:00:00Z') });
    await paths.fetchPage('series', seriesPage('renegade-immortal'), 'user');
    expect(paths.status()).toEqual({
      origin: ORIGIN,
      series: { path: '/anime/', how: `${ORIGIN}/anime/renegade-immortal/ is a series page`, learnedAt: '2026-11-29T01:00:00.000Z' },
      list: {
        path: '/anime/',
        how: `no quick-filter form on ${ORIGIN}/anime/renegade-immortal/; derived from the series path`,
        learnedAt: '2026-11-29T01:00:00.000Z',
      },
    });
  });

  it('does not take an episode post at /{slug}/ for a series page', async () => {
    const { upstream, requests } = fakeSite(MOE);
    const paths = learner(upstream);
    const slug = 'martial-master-episode-05-subtitle-indonesia';
    await expect(paths.fetchPage('series', seriesPage(slug), 'user')).rejects.toThrow(
      `The upstream has no page at ${ORIGIN}/seri/${slug}/`,
    );
    expect(requests).toEqual([`/seri/${slug}/`, `/anime/${slug}/`, `/${slug}/`]);
    expect(paths.status().series).toBeNull();
  });

  it('after a series found nowhere, reads the home page once rather than looking up every miss', async () => {
    const { upstream, requests } = fakeSite(MOE);
    const paths = learner(upstream);
    await expect(paths.fetchPage('series', seriesPage('no-such-series'), 'user')).rejects.toBeInstanceOf(UpstreamNotFoundError);
    await expect(paths.fetchPage('series', seriesPage('nor-this-one'), 'user')).rejects.toBeInstanceOf(UpstreamNotFoundError);
    await expect(paths.fetchPage('series', seriesPage('nor-that-one'), 'user')).rejects.toBeInstanceOf(UpstreamNotFoundError);
    // The home page's series link is the page seen under the path: the first 404 after it checks that it still serves.
    expect(requests.slice(3)).toEqual(['/', '/nor-this-one/', '/renegade-immortal/', '/nor-that-one/']);
    expect(paths.site()).toEqual({ seriesPath: '/', listPath: '/anime/' });
  });

  it('learns the list path from the home page when a list is asked first', async () => {
    const { upstream, requests } = fakeSite(MOE);
    const paths = learner(upstream);
    await paths.fetchPage('list', popularList, 'user');
    await paths.fetchPage('series', seriesPage('martial-master'), 'user');
    expect(requests).toEqual(['/', '/anime/?order=popular&page=1', '/martial-master/']);
    expect(paths.status().list?.how).toBe(`the quick-filter form of ${ORIGIN}/`);
    expect(paths.status().series?.how).toBe(`series links on ${ORIGIN}/`);
  });

  it('learns from a page fetched for its own sake while a path is unknown', async () => {
    const { upstream, requests } = fakeSite(CAFE);
    const paths = learner(upstream);
    await paths.fetchPage(null, () => '/', 'user');
    await paths.fetchPage('series', seriesPage('soul-land-2'), 'user');
    expect(requests).toEqual(['/', '/seri/soul-land-2/']);
  });

  it('shares one lookup between concurrent first requests', async () => {
    const { upstream, requests, gate } = fakeSite(MOE);
    gate.release = () => undefined;
    const paths = learner(upstream);
    await Promise.all(
      ['renegade-immortal', 'soul-land-2', 'martial-master'].map((slug) => paths.fetchPage('series', seriesPage(slug), 'user')),
    );
    expect(requests).toEqual([
      '/seri/renegade-immortal/',
      '/anime/renegade-immortal/',
      '/renegade-immortal/',
      '/soul-land-2/',
      '/martial-master/',
    ]);
  });

  it('follows a series path that moved, after one 404, and keeps a 404 of a series that does not exist', async () => {
    const { upstream, requests, site } = fakeSite(CAFE);
    const paths = learner(upstream, memoryStore(), { recheckMs: 1_000, now: () => clock });
    let clock = 0;
    await paths.fetchPage('series', seriesPage('renegade-immortal'), 'user');

    await expect(paths.fetchPage('series', seriesPage('no-such-series'), 'user')).rejects.toBeInstanceOf(UpstreamNotFoundError);
    expect(requests.slice(1)).toEqual(['/seri/no-such-series/', '/seri/renegade-immortal/']);
    expect(paths.site().seriesPath).toBe('/seri/');

    clock = 2_000;
    site.seriesPath = '/anime/';
    requests.length = 0;
    const page = await paths.fetchPage('series', seriesPage('soul-land-2'), 'user');
    expect(page.url).toBe(`${ORIGIN}/anime/soul-land-2/`);
    expect(requests).toEqual(['/seri/soul-land-2/', '/seri/renegade-immortal/', '/anime/soul-land-2/']);
    expect(paths.status().series).toEqual({
      path: '/anime/',
      how: `/seri/renegade-immortal/, a series page, answered 404; ${ORIGIN}/anime/soul-land-2/ is a series page`,
      learnedAt: new Date(2_000).toISOString(),
    });
  });

  it('checks a learned path at most once per interval', async () => {
    const { upstream, requests } = fakeSite(CAFE);
    const paths = learner(upstream, memoryStore(), { recheckMs: 60_000, now: () => 0 });
    await paths.fetchPage('series', seriesPage('renegade-immortal'), 'user');
    await expect(paths.fetchPage('series', seriesPage('gone-1'), 'user')).rejects.toBeInstanceOf(UpstreamNotFoundError);
    await expect(paths.fetchPage('series', seriesPage('gone-2'), 'user')).rejects.toBeInstanceOf(UpstreamNotFoundError);
    expect(requests).toEqual(['/seri/renegade-immortal/', '/seri/gone-1/', '/seri/renegade-immortal/', '/seri/gone-2/']);
  });

  it('uses the variables without any lookup', async () => {
    const { upstream, requests } = fakeSite(MOE);
    const paths = learner(upstream, memoryStore(), { overrides: { series: '/', list: '/anime/' } });
    await expect(paths.fetchPage('series', seriesPage('gone'), 'user')).rejects.toBeInstanceOf(UpstreamNotFoundError);
    await paths.fetchPage('list', popularList, 'user');
    expect(requests).toEqual(['/gone/', '/anime/?order=popular&page=1']);
    expect(paths.status()).toEqual({
      origin: ORIGIN,
      series: { path: '/', how: 'set by UPSTREAM_SERIES_PATH', learnedAt: null },
      list: { path: '/anime/', how: 'set by UPSTREAM_LIST_PATH', learnedAt: null },
    });
  });

  it('keeps what it learned in DATA_DIR: after a restart, no lookup', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'site-paths-'));
    const first = fakeSite(MOE);
    await learner(first.upstream, createFileSitePaths(dataDir, logger)).fetchPage('series', seriesPage('martial-master'), 'user');
    await until(
      () =>
        existsSync(join(dataDir, 'upstream-paths.json')) && readFileSync(join(dataDir, 'upstream-paths.json'), 'utf8').includes('/anime/'),
    );
    const second = fakeSite(MOE);
    const restarted = learner(second.upstream, createFileSitePaths(dataDir, logger));
    await restarted.fetchPage('series', seriesPage('soul-land-2'), 'user');
    await restarted.fetchPage('list', popularList, 'user');
    expect(second.requests).toEqual(['/soul-land-2/', '/anime/?order=popular&page=1']);
  });
});

import { gunzipSync } from 'node:zlib';
import * as cheerio from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageContext } from '../../simulator/pages/context.js';
import { RenderedPages } from '../../simulator/renderedPages.js';
import { startSimulator, type Simulator } from '../../simulator/server.js';
import type { SiteAnswer } from '../../simulator/site.js';
import { VARIANTS } from '../../simulator/variant.js';

const ctx: PageContext = { origin: 'http://127.0.0.1:4000', host: '127.0.0.1:4000', variant: VARIANTS.cafe };

describe('RenderedPages', () => {
  it('renders a path once while the context and the catalog version stay, and again after either changes', () => {
    const pages = new RenderedPages();
    const rendered: string[] = [];
    const render = (html: string) => (): SiteAnswer => {
      rendered.push(html);
      return { status: 200, html };
    };
    const first = pages.page(ctx, 0, '/seri/a/', render('<p>a</p>'));
    expect(pages.page(ctx, 0, '/seri/a/', render('<p>again</p>'))).toBe(first);
    expect(pages.page(ctx, 1, '/seri/a/', render('<p>new episode</p>')).body.utf8.toString()).toBe('<p>new episode</p>');
    const moved = { ...ctx, variant: { ...ctx.variant, seriesBase: '/anime/' as const } };
    expect(pages.page(moved, 1, '/seri/a/', render('<p>moved</p>')).body.utf8.toString()).toBe('<p>moved</p>');
    expect(rendered).toEqual(['<p>a</p>', '<p>new episode</p>', '<p>moved</p>']);
  });

  it('keeps a redirect without a body, and a page gzipped as its own bytes', () => {
    const pages = new RenderedPages();
    const redirect = pages.page(ctx, 0, '/seri', () => ({ status: 301, location: `${ctx.origin}/seri/` }));
    expect(redirect.body.utf8).toHaveLength(0);
    const page = pages.page(ctx, 0, '/', () => ({ status: 200, html: '<p>Donghua 仙逆</p>' }));
    expect(gunzipSync(page.body.gzipped).toString('utf8')).toBe('<p>Donghua 仙逆</p>');
    expect(page.body.gzipped).toBe(page.body.gzipped);
  });
});

describe('a page the simulator serves again', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ catalogSize: 120 });
  });
  afterAll(() => sim.close());

  const page = async (path: string) => {
    const response = await fetch(`${sim.origin}${path}`, { redirect: 'manual' });
    return { status: response.status, text: await response.text() };
  };

  it('is the same page until the site changes, and shows each change at once: a new episode, a removal, a moved series path', async () => {
    const series = sim.catalog.series.find((item) => item.status === 'Ongoing' && (item.latestEpisode ?? 0) > 1)!;
    const path = `/seri/${series.slug}/`;
    const first = await page(path);
    expect(await page(path)).toEqual(first);
    const latestOnPage = (html: string) => cheerio.load(html)('.eplister li .epl-num').first().text();
    expect(latestOnPage(first.text)).toBe(String(series.latestEpisode));

    const published = sim.publishEpisode(series.slug);
    expect(latestOnPage((await page(path)).text)).toBe(String(published.latestEpisode));

    const other = sim.catalog.series.find((item) => item.slug !== series.slug)!;
    expect((await page(`/seri/${other.slug}/`)).status).toBe(200);
    sim.removeSeries(other.slug);
    expect((await page(`/seri/${other.slug}/`)).status).toBe(404);

    sim.moveSeriesPath('/anime/');
    expect((await page(path)).status).toBe(404);
    expect(latestOnPage((await page(`/anime/${series.slug}/`)).text)).toBe(String(published.latestEpisode));
  });

  it('lays out every page with the sidebar of the catalog as it is now', async () => {
    const sidebarOf = (html: string) => cheerio.load(html)('#sidebar').html()!;
    const before = sidebarOf((await page('/?s=sidebar+before')).text);
    expect(sidebarOf((await page('/?s=sidebar+again')).text)).toBe(before);
    // Series links of whatever series path the site has by now (the test before moves it).
    const listed = sim.catalog.series.filter((item) => before.includes(`/${item.slug}/"`));
    expect(listed.length).toBeGreaterThan(3);
    sim.removeSeries(listed[0]!.slug);
    const after = sidebarOf((await page('/?s=sidebar+after')).text);
    expect(after).not.toContain(`/${listed[0]!.slug}/"`);
    expect(after).toContain(`/${listed[1]!.slug}/"`);
  });

  it('shows a layout change, and the page as it was once the fault is gone', async () => {
    const home = await page('/');
    sim.setFaults([{ kind: 'layout-change' }]);
    const redesigned = await page('/');
    expect(cheerio.load(redesigned.text)('article.bs')).toHaveLength(0);
    expect(cheerio.load(home.text)('article.bs').length).toBeGreaterThan(0);
    sim.clearFaults();
    expect(await page('/')).toEqual(home);
  });
});

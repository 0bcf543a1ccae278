import * as cheerio from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byUpdate, LIST_PER_PAGE } from '../../simulator/catalog.js';
import { SERIES, type Series } from '../../simulator/dataset.js';
import { episodeSlug, episodesOf, siteDatetime } from '../../simulator/episodes.js';
import { catalogSeries, plainPinyin } from '../../simulator/largeCatalog.js';
import { ARCHIVE_PER_PAGE, azList } from '../../simulator/listings.js';
import { startSimulator, type Simulator } from '../../simulator/server.js';

const SIZE = 1500;
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ catalogSize: SIZE });
});
afterAll(() => sim.close());

async function page(path: string, on = sim): Promise<{ status: number; $: cheerio.CheerioAPI }> {
  const response = await fetch(`${on.origin}${path}`);
  return { status: response.status, $: cheerio.load(await response.text()) };
}

/** Slugs of the series cards of a list page, in order (decoy ad cards link elsewhere). */
async function listed(path: string, on = sim): Promise<string[]> {
  const { $ } = await page(path, on);
  return $('div.listupd article.bs a.tip')
    .map((_, link) => /^\/seri\/([^/]+)\/$/.exec(new URL($(link).attr('href') ?? '').pathname)?.[1] ?? [])
    .get();
}

const hasHan = (text: string): boolean => /\p{Script=Han}/u.test(text);

describe('a simulator of the real site’s size', () => {
  it('lists the asked number of series, the default dataset among them, the same on every build', () => {
    expect(sim.catalog.series).toHaveLength(SIZE);
    for (const series of SERIES) expect(sim.catalog.find(series.slug)).toEqual(series);
    const again = catalogSeries(SIZE);
    expect(again.map((series) => series.slug)).toEqual(sim.catalog.series.map((series) => series.slug));
    expect(new Set(sim.catalog.series.map((series) => series.slug)).size).toBe(SIZE);
  });

  it('has a few hundred long episode lists and Chinese, pinyin, English and Indonesian names', () => {
    const long = sim.catalog.series.filter((series) => (series.latestEpisode ?? 0) >= 100);
    expect(long.length).toBeGreaterThan(150);
    expect(long.length).toBeLessThan(500);
    const named = sim.catalog.series.filter((series) => series.altTitles.some(hasHan));
    expect(named.length).toBeGreaterThan(1000);
    // Pinyin with tone marks next to the plain form, fullwidth season digits, and no comma inside a name.
    expect(sim.catalog.series.some((series) => series.altTitles.some((alt) => alt !== plainPinyin(alt)))).toBe(true);
    expect(sim.catalog.series.some((series) => series.altTitles.some((alt) => /[０-９]/.test(alt)))).toBe(true);
    expect(sim.catalog.series.flatMap((series) => series.altTitles).filter((alt) => alt.includes(','))).toEqual([]);
  });

  it('prints the alternative titles in span.alter as the theme does, joined by ", "', async () => {
    const series = sim.catalog.series.find((item) => item.altTitles.length === 3)!;
    const { $ } = await page(`/seri/${series.slug}/`);
    expect($('.infox .ninfo span.alter').text()).toBe(series.altTitles.join(', '));
    expect($('.eplister li')).toHaveLength(episodesOf(series).length);
  });

  it('pages the A–Z list 10 a page over every series once, by title', async () => {
    const first = azList(null, 1, sim.catalog);
    expect(first.totalPages).toBe(SIZE / ARCHIVE_PER_PAGE);
    const last = await listed(`/az-lists/page/${first.totalPages}/`);
    expect(last).toEqual(azList(null, first.totalPages, sim.catalog).items.map((series) => series.slug));
    expect((await page(`/az-lists/page/${first.totalPages + 1}/`)).status).toBe(404);
    const letter = azList('S', 2, sim.catalog);
    expect(await listed('/az-lists/page/2/?show=S')).toEqual(letter.items.map((series) => series.slug));
  });

  it('pages the update-ordered list 20 a page, most recent update first', async () => {
    const byUpdateOrder = [...sim.catalog.series].sort(byUpdate);
    expect(await listed('/seri/?order=update')).toEqual(byUpdateOrder.slice(0, LIST_PER_PAGE).map((series) => series.slug));
    const lastPage = Math.ceil(SIZE / LIST_PER_PAGE);
    expect(await listed(`/seri/?order=update&page=${lastPage}`)).toEqual(
      byUpdateOrder.slice((lastPage - 1) * LIST_PER_PAGE).map((series) => series.slug),
    );
    expect(await listed(`/seri/?order=update&page=${lastPage + 1}`)).toEqual([]);
  });
});

describe('the site changes while the service runs', () => {
  it('posts a new series on top of the update order and the A–Z list', async () => {
    const added = sim.addSeries({ title: 'Aaa Brand New Sovereign', altTitles: ['Quan Xin Zhi Zun', '全新之尊'] });
    expect(added.slug).toBe('aaa-brand-new-sovereign');
    expect((await listed('/seri/?order=update'))[0]).toBe(added.slug);
    expect((await listed('/az-lists/?show=A'))[0]).toBe(added.slug);
    const { $ } = await page(`/seri/${added.slug}/`);
    expect($('h1.entry-title').text()).toBe('Aaa Brand New Sovereign');
    expect($('span.alter').text()).toBe('Quan Xin Zhi Zun, 全新之尊');
    const generated = sim.addSeries();
    expect(sim.catalog.find(generated.slug)).toEqual(generated);
    expect((await listed('/seri/?order=update'))[0]).toBe(generated.slug);
  });

  it('publishes an episode: the series tops the update order, its page and the new episode page show it', async () => {
    const series = sim.catalog.series.find((item) => item.status === 'Ongoing' && (item.latestEpisode ?? 0) > 100)!;
    const published = sim.publishEpisode(series.slug);
    expect(published.latestEpisode).toBe(series.latestEpisode! + 1);
    expect((await listed('/seri/?order=update'))[0]).toBe(series.slug);
    const { $ } = await page(`/seri/${series.slug}/`);
    expect($('.eplister li')).toHaveLength(published.latestEpisode!);
    expect($('.eplister li .epl-num').first().text()).toBe(String(published.latestEpisode));
    expect((await page(`/${episodeSlug(episodesOf(published)[0]!)}/`)).status).toBe(200);
    // The earlier episodes keep their dates; the new one is a week after the last.
    expect(
      episodesOf(published)
        .slice(1)
        .map((item) => item.publishedAt),
    ).toEqual(episodesOf(series).map((item) => item.publishedAt));
    expect(Date.parse(episodesOf(published)[0]!.publishedAt) - Date.parse(series.updatedAt)).toBe(7 * 86_400_000);
  });

  it('updates a series in place and removes one from every page', async () => {
    const [edited, removed] = sim.catalog.series.filter((item) => item.status === 'Completed').slice(10, 12) as [Series, Series];
    const updated = sim.updateSeries(edited.slug, { altTitles: ['Renamed Edition', '改名'], status: 'Hiatus' });
    const { $ } = await page(`/seri/${edited.slug}/`);
    expect($('span.alter').text()).toBe('Renamed Edition, 改名');
    expect($('.spe span').first().text()).toBe('Status: Hiatus');
    // An edit moves the post to the top of the update order and dates its page, but not its episodes.
    expect((await listed('/seri/?order=update'))[0]).toBe(edited.slug);
    expect($('time[itemprop=dateModified]').attr('datetime')).toBe(siteDatetime(updated.modifiedAt!));
    expect(episodesOf(updated).map((item) => item.publishedAt)).toEqual(episodesOf(edited).map((item) => item.publishedAt));

    const letter = removed.title.charAt(0).toUpperCase();
    const pages = azList(letter, 1, sim.catalog).totalPages;
    const where = Array.from({ length: pages }, (_, index) => index + 1).find((n) =>
      azList(letter, n, sim.catalog).items.includes(removed),
    )!;
    const path = `/az-lists/${where === 1 ? '' : `page/${where}/`}?show=${letter}`;
    expect(await listed(path)).toContain(removed.slug);
    sim.removeSeries(removed.slug);
    expect((await page(`/seri/${removed.slug}/`)).status).toBe(404);
    expect((await page(`/${episodeSlug(episodesOf(removed)[0]!)}/`)).status).toBe(404);
    expect(sim.catalog.find(removed.slug)).toBeNull();
    expect(await listed(path)).not.toContain(removed.slug);
    expect(await listed(path)).toEqual(azList(letter, where, sim.catalog).items.map((series) => series.slug));
    expect(() => sim.removeSeries(removed.slug)).toThrow(/no series/);
  });

  it('keeps each simulator’s changes its own', async () => {
    const other = await startSimulator({ catalogSize: SIZE });
    try {
      expect(other.catalog.series).toEqual(catalogSeries(SIZE));
      expect(other.catalog.find('aaa-brand-new-sovereign')).toBeNull();
    } finally {
      await other.close();
    }
  });
});

describe('a younger site (fewer series than the default dataset)', () => {
  it('lists the dataset’s oldest posts, on as many list pages as they fill, and answers 404 for the others', async () => {
    const young = await startSimulator({ catalogSize: 30 });
    try {
      expect(young.catalog.series).toEqual(SERIES.slice(0, 30));
      const byUpdateOrder = [...SERIES.slice(0, 30)].sort(byUpdate).map((series) => series.slug);
      expect([...(await listed('/seri/?order=update', young)), ...(await listed('/seri/?order=update&page=2', young))]).toEqual(
        byUpdateOrder,
      );
      expect(await listed('/seri/?order=update&page=3', young)).toEqual([]);
      expect((await page(`/seri/${SERIES[30]!.slug}/`, young)).status).toBe(404);
    } finally {
      await young.close();
    }
  });
});

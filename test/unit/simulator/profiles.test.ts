import * as cheerio from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERIES } from '../../simulator/dataset.js';
import { episodeSlug, episodesOf, seriesInfo, serversOf } from '../../simulator/episodes.js';
import { startSimulator, type Simulator } from '../../simulator/server.js';
import { variantFromEnv } from '../../simulator/variant.js';

// The theme profiles the simulator serves: each one's paths (and 404s where it has none) and the
// markup the research saw on its real site (upstream-structure.md §7).

const LONG_SERIES = 'heaven-devouring-sovereign';
const TOMB = SERIES.find((series) => series.slug === 'the-emperors-tomb')!;

async function page(sim: Simulator, path: string): Promise<{ status: number; html: string; $: cheerio.CheerioAPI }> {
  const response = await fetch(`${sim.origin}${path}`, { redirect: 'manual' });
  const html = await response.text();
  return { status: response.status, html, $: cheerio.load(html) };
}

describe('the moe profile (the later snapshot)', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ variant: 'moe' });
  });
  afterAll(() => sim.close());

  it('serves series at /{slug}/, the list at /anime/, and 404s the other series paths', async () => {
    expect((await page(sim, '/the-emperors-tomb/')).status).toBe(200);
    expect((await page(sim, '/anime/?order=update')).status).toBe(200);
    for (const path of ['/seri/the-emperors-tomb/', '/anime/the-emperors-tomb/', '/seri/', '/no-such-series/']) {
      const answer = await page(sim, path);
      expect(answer.status).toBe(404);
      expect(answer.$('div.error404 > h2').text()).toBe('404');
    }
  });

  it('writes links, canonical and the quick filter relative; images stay absolute', async () => {
    const { $ } = await page(sim, '/anime/?order=title');
    expect($('link[rel=canonical]').attr('href')).toBe('/anime/');
    expect($('#sidebar .quickfilter form').attr('action')).toBe('/anime');
    expect($('.postbody .quickfilter form').attr('action')).toBe('/anime');
    const firstCard = $('.postbody .listupd article.bs a.tip').first().attr('href');
    expect(firstCard).toMatch(/^\/[a-z0-9-]+\/$/);
    expect($('.postbody .listupd article.bs img').first().attr('src')).toMatch(new RegExp(`^${sim.origin}/wp-content/`));
    expect($(`a[href^="${sim.origin}"]`)).toHaveLength(0);
  });

  it('labels series info in Indonesian, with the dates in itemprop times, and points First Episode at #', async () => {
    const { $ } = await page(sim, '/the-emperors-tomb/');
    const labels = $('.infox .spe > span > b')
      .toArray()
      .map((label) => $(label).text());
    const info = seriesInfo(TOMB);
    expect(labels).toEqual([
      'Status:',
      ...(info.networks.length > 0 ? ['Network:'] : []),
      'Studio:',
      'Tanggal rilis:',
      'Durasi:',
      ...(info.season === null ? [] : ['Season:']),
      'Negara:',
      'Tipe:',
      ...(info.declaredEpisodes === null ? [] : ['Episode:']),
      'Subber:',
      'Diposting oleh:',
      'Ditambahkan:',
      'Diperbarui pada:',
    ]);
    expect($('.spe span:has(b:contains("Ditambahkan")) time[itemprop=datePublished]').attr('datetime')).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+07:00$/,
    );
    expect($('.spe span:has(b:contains("Diperbarui pada")) time[itemprop=dateModified]')).toHaveLength(1);
    expect($('.lastend .inepcx a').first().attr('href')).toBe('#');
    expect($('.lastend .epcurfirst').text()).toBe('Episode 1');
    expect($('.lastend .inepcx a').last().attr('href')).toBe(`/${episodeSlug(episodesOf(TOMB)[0]!)}/`);
  });

  it('has aired 670 episodes of its longest series; its episode page (~600 KB) titles the list in h3 with empty link titles', async () => {
    const { status, html, $ } = await page(sim, `/${LONG_SERIES}-episode-670-subtitle-indonesia/`);
    expect(status).toBe(200);
    expect(html.length).toBeGreaterThan(550_000);
    expect(html.length).toBeLessThan(700_000);
    const entries = $('.episodelist > ul > li');
    expect(entries).toHaveLength(670);
    expect(entries.first().find('a').attr('title')).toBe('');
    expect(entries.first().find('.playinfo h3').text()).toBe('HEAVEN DEVOURING SOVEREIGN Episode 670 Subtitle Indonesia');
    expect(entries.first().find('.playinfo span').text()).toBe('Eps 670 - April 24, 2026');
    expect($('.episodelist h4')).toHaveLength(0);
    expect((await page(sim, `/${LONG_SERIES}/`)).$('.eplister li')).toHaveLength(670);
  });

  it('heads the home boxes in Indonesian; Recommendation cards link to episode posts; the pager says Selanjutnya', async () => {
    const { $ } = await page(sim, '/');
    expect($('.releases.hothome h3').text()).toBe('Terpopuler Hari Ini');
    expect($('.releases.latesthome h3').text()).toBe('Rilisan Terbaru');
    expect($('.bixbox .releases h3').filter((_, el) => $(el).text() === 'Rekomendasi')).toHaveLength(1);
    expect($('.listupd.popularslider article.bs')).toHaveLength(5);
    const card = $('.series-gen .tab-pane').first().find('article.bs').first();
    expect(card.find('a.tip').attr('href')).toMatch(/^\/[a-z0-9-]+-subtitle-indonesia\/$/);
    expect(card.find('h2').text()).toMatch(/ (Episode \d+ )?Subtitle Indonesia$/);
    expect($('.hpage a.r').text().trim()).toBe('Selanjutnya');
    expect($('.hpage a.r').attr('href')).toBe('/page/2/');
  });
});

describe('the sister profile (a sister site on the theme)', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ variant: 'sister' });
  });
  afterAll(() => sim.close());

  it('serves series at /anime/{slug}/ with absolute links on its own domain, and 404s /seri/ and /{slug}/', async () => {
    const { status, $ } = await page(sim, '/anime/the-emperors-tomb/');
    expect(status).toBe(200);
    expect($('link[rel=canonical]').attr('href')).toBe(`${sim.origin}/anime/the-emperors-tomb/`);
    expect((await page(sim, '/seri/the-emperors-tomb/')).status).toBe(404);
    expect((await page(sim, '/the-emperors-tomb/')).status).toBe(404);
  });

  it('has no quick filter in its sidebar; its list page carries the form, to /anime', async () => {
    const home = await page(sim, '/');
    expect(home.$('.quickfilter')).toHaveLength(0);
    expect(home.$('#sidebar form')).toHaveLength(0);
    expect(home.$('.searchx form').attr('action')).toBe(`${sim.origin}/`);
    const list = await page(sim, '/anime/');
    expect(list.$('.quickfilter form').attr('action')).toBe(`${sim.origin}/anime`);
  });

  it('adds Fansub and Producers rows to the English labels', async () => {
    const { $ } = await page(sim, '/anime/the-emperors-tomb/');
    expect($('.spe b:contains("Fansub")').parent().text()).toBe('Fansub: Lucifer Subs');
    expect($('.spe b:contains("Producers")').parent().text()).toBe('Producers: Tencent Penguin Pictures, Bilibili');
    expect($('.spe b:contains("Released on")').next('time').attr('itemprop')).toBe('datePublished');
  });

  it('puts the episode title block after the player and links each video server to its page {episode}/v/N/', async () => {
    const item = episodesOf(TOMB)[3]!;
    const url = `${sim.origin}${item.path}`;
    const { $ } = await page(sim, item.path);
    expect($('.megavid .item.meta')).toHaveLength(0);
    expect($('.megavid + .item.meta h1.entry-title').text()).toBe(item.title);
    const lazy = $('.item.meta .tb img');
    expect(lazy.attr('data-lazyloaded')).toBe('1');
    expect(lazy.attr('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(lazy.attr('data-src')).toBe(`${sim.origin}${TOMB.poster}`);
    const servers = serversOf(item);
    const options = $('select.mirror option[data-index]')
      .toArray()
      .map((option) => $(option).attr('value'));
    expect(options).toEqual(servers.map((_, index) => `${url}v/${index + 1}/`));
    expect($('#pembed iframe').attr('src')).toBe(servers[0]!.src);
    const third = await page(sim, `${item.path}v/3/`);
    expect(third.status).toBe(200);
    expect(third.$('#pembed iframe').attr('src')).toBe(servers[2]!.src);
    expect((await page(sim, `${item.path}v/${servers.length + 1}/`)).status).toBe(404);
  });

  it('reads lazy images from data-src and data-lazy-src over data: placeholders', async () => {
    const { $ } = await page(sim, '/anime/?order=update');
    const images = $('.postbody .listupd article.bs img').toArray();
    const placeholders = images.filter((img) => ($(img).attr('src') ?? '').startsWith('data:'));
    expect(placeholders.length).toBeGreaterThan(0);
    for (const img of placeholders)
      expect($(img).attr('data-src') ?? $(img).attr('data-lazy-src')).toMatch(new RegExp(`^${sim.origin}/wp-content/uploads/`));
    expect(placeholders.some((img) => $(img).attr('data-lazy-src') !== undefined)).toBe(true);
  });
});

describe('a site that moves its series path mid-run', () => {
  it('links to the new path at once, answers there, and 404s the old one', async () => {
    const sim = await startSimulator({ variant: 'cafe' });
    try {
      expect((await page(sim, '/seri/the-emperors-tomb/')).status).toBe(200);
      sim.moveSeriesPath('/');
      expect((await page(sim, '/seri/the-emperors-tomb/')).status).toBe(404);
      const moved = await page(sim, '/the-emperors-tomb/');
      expect(moved.status).toBe(200);
      expect(moved.$('link[rel=canonical]').attr('href')).toBe(`${sim.origin}/the-emperors-tomb/`);
      expect(sim.pageContext().variant.seriesBase).toBe('/');
      const list = await page(sim, '/seri/?order=title');
      expect(list.$('.postbody .listupd article.bs a.tip').first().attr('href')).toMatch(new RegExp(`^${sim.origin}/[a-z0-9-]+/$`));
    } finally {
      await sim.close();
    }
  });
});

describe('SIM_PROFILE', () => {
  it('names the profile of a run; absent or empty is cafe; an unknown name stops the run', () => {
    expect(variantFromEnv({ SIM_PROFILE: 'sister' })).toBe('sister');
    expect(variantFromEnv({})).toBe('cafe');
    expect(variantFromEnv({ SIM_PROFILE: '' })).toBe('cafe');
    expect(() => variantFromEnv({ SIM_PROFILE: 'anichin' })).toThrow('SIM_PROFILE must be one of cafe, classic, moe, sister, got anichin');
  });
});

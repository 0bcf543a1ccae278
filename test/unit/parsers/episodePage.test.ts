import { describe, expect, it } from 'vitest';
import { LayoutChangedError } from '../../../src/parsers/errors.js';
import { parseEpisodePage } from '../../../src/parsers/episodePage.js';
import type { EpisodeItem } from '../../simulator/catalog.js';
import { SERIES } from '../../simulator/dataset.js';
import { episodeSlug, episodesOf, findEpisode, type EpisodeLookup } from '../../simulator/episodes.js';
import { expectedEpisode } from '../../helpers/seriesExpectations.js';
import { seriesUrl, type PageContext } from '../../simulator/pages/context.js';
import { episodePage } from '../../simulator/pages/episodePage.js';
import { redesign } from '../../simulator/pages/redesign.js';
import { seriesPage } from '../../simulator/pages/seriesPage.js';
import { VARIANT_NAMES, VARIANTS, type VariantName } from '../../simulator/variant.js';
import { expectFixtureError, loadFixture } from './fixture.js';

describe('parseEpisodePage on hand-written pages', () => {
  it.each(['first', 'finale', 'sister-meta-after-player'])('%s: every field', (name) => {
    const fixture = loadFixture('episode', name);
    expect(parseEpisodePage(fixture.html, fixture.pageUrl).data).toEqual(fixture.expected);
  });

  it.each([
    ['nested inside the type badge (the real site)', '<span class="epx"> Donghua <span class="lg">Sub</span></span>'],
    ['beside the type badge', '<span class="epx"> Donghua </span><span class="lg">Sub</span>'],
  ])('reads type "Donghua" and sub "Sub" with the sub label %s', (_form, badges) => {
    const fixture = loadFixture('episode', 'first');
    const html = fixture.html.replace('<span class="epx"> Donghua </span><span class="lg">Sub</span>', badges);
    expect(html).toContain(badges);
    const { type, sub } = parseEpisodePage(html, fixture.pageUrl).data;
    expect({ type, sub }).toEqual({ type: 'Donghua', sub: 'Sub' });
  });

  it('reads the episode list titled in h3 with an empty link title and no thumbnail title, as the later snapshot and the sister sites print it', () => {
    const fixture = loadFixture('episode', 'first');
    const html = fixture.html
      .replaceAll('itemprop="url"><div class="thumbnel">', 'itemprop="url" title=""><div class="thumbnel">')
      .replace(/(<div class="thumbnel"><img [^>]*?) title="[^"]*"/g, '$1')
      .replace(/<h4>([^<]*)<\/h4><span>Eps (\d+) - Renegade Immortal - /g, '<h3>$1</h3><span>Eps $2 - ');
    expect(html).not.toContain('<h4>');
    expect(html).toContain('<h3>Renegade Immortal Episode 02 Subtitle Indonesia</h3><span>Eps 02 - October 2, 2023</span>');
    expect(parseEpisodePage(html, fixture.pageUrl).data.episodes).toEqual((fixture.expected as { episodes: unknown[] }).episodes);
  });

  // The servers are `select.mirror option` and the shown embed `#pembed iframe, .player-embed iframe, #embed_holder iframe`,
  // inside the player block, never inside an ad.
  const EMBED =
    '<div class="video-content"><div id="embed_holder" class="lowvid"><div class="player-embed" id="pembed"><iframe src="https://anichin.stream/?id=Xk29sd0&amp;autoplay=1" frameborder="0" allowfullscreen></iframe></div></div></div>';
  const SERVERS = [
    { name: 'Premium', url: 'https://anichin.stream/?id=Xk29sd0&lang=id' },
    { name: 'OK.ru', url: 'https://ok.ru/videoembed/7391028364' },
    { name: 'Dailymotion [Ads]', url: 'https://www.dailymotion.com/embed/video/x8pq2rs' },
  ];
  it.each([
    ['#pembed alone', '<div id="pembed"><p><iframe src="https://a.test/pembed"></iframe></p></div>', 'https://a.test/pembed'],
    ['.player-embed alone', '<div class="lowvid player-embed"><iframe src="//a.test/player"></iframe></div>', 'https://a.test/player'],
    [
      '#embed_holder alone, its iframe lazy',
      '<div id="embed_holder"><iframe data-src="/embed/1/"></iframe></div>',
      'https://anichin.cafe/embed/1/',
    ],
    [
      'after an ad’s player and an iframe outside any player',
      '<div class="kln"><div id="pembed"><iframe src="https://ads.test/"></iframe></div></div><iframe src="https://other.test/"></iframe><div class="player-embed"><iframe src="https://a.test/real"></iframe></div>',
      'https://a.test/real',
    ],
    ['none: only an ad’s player', '<div class="kln"><div class="player-embed"><iframe src="https://ads.test/"></iframe></div></div>', null],
  ])('takes the shown embed from %s', (_case, embed, shown) => {
    const fixture = loadFixture('episode', 'first');
    expect(fixture.html).toContain(EMBED);
    const html = fixture.html.replace(EMBED, embed);
    const servers = parseEpisodePage(html, fixture.pageUrl).data.servers;
    expect(servers).toEqual(shown === null ? SERVERS : [{ name: 'Default', url: shown }, ...SERVERS]);
  });

  it('takes servers from the mirror select only: not from another select, an ad’s, or an option whose iframe tag is commented out', () => {
    const fixture = loadFixture('episode', 'first');
    const others =
      '<select class="quality"><option value="https://a.test/quality/">720p</option></select>' +
      '<div class="blox"><select class="mirror"><option value="https://ads.test/">Ad</option></select></div>' +
      '<select class="mirror"><option value="&lt;!-- &lt;iframe src=&quot;https://a.test/hidden&quot;&gt; --&gt;">Hidden</option><optgroup label="More"><option value="https://a.test/more/">More</option></optgroup></select>';
    const html = fixture.html.replace(
      '<div class="item video-nav"><div class="mobius">',
      `<div class="item video-nav"><div class="mobius">${others}`,
    );
    expect(html).toContain(others);
    expect(parseEpisodePage(html, fixture.pageUrl).data.servers).toEqual([
      { name: 'Default', url: 'https://anichin.stream/?id=Xk29sd0&autoplay=1' },
      { name: 'More', url: 'https://a.test/more/' },
      ...SERVERS,
    ]);
  });

  // Without "All Episodes", the series is the meta line's last link, else the list header's `.det h3 a`; its title from the breadcrumb or that link.
  it.each([
    [
      "the meta line's last link, titled by itself where the breadcrumb does not link there",
      (html: string) =>
        html.replace(
          'series <a href="https://anichin.cafe/seri/renegade-immortal/">Renegade Immortal</a>',
          'series <a href="/seri/other-name/">Other  Name</a>',
        ),
      { title: 'Other Name', slug: 'other-name', url: 'https://anichin.cafe/seri/other-name/' },
    ],
    [
      "the list header's .det h3 link, not an h3 link outside .det, titled by the breadcrumb",
      (html: string) =>
        html
          .replace(/<span class="year">.*\n/, '<span class="year">Released on <span class="updated">September 25, 2023</span></span>\n')
          .replace('<div class="headlist">', '<div class="headlist"><h3><a href="https://anichin.cafe/seri/decoy/">Decoy</a></h3>')
          .replace(
            '<div class="det"><h3><a href="https://anichin.cafe/seri/renegade-immortal/">Renegade Immortal</a>',
            '<div class="det"><h3><b><a href="https://anichin.cafe/seri/renegade-immortal/">Xian Ni</a></b>',
          ),
      { title: 'Renegade Immortal', slug: 'renegade-immortal', url: 'https://anichin.cafe/seri/renegade-immortal/' },
    ],
  ])('without "All Episodes", reads the series from %s', (_case, edit, series) => {
    const fixture = loadFixture('episode', 'first');
    const allEpisodes =
      '<div class="nvs nvsc"><a href="https://anichin.cafe/seri/renegade-immortal/"><span class="tex">All Episodes</span></a></div>';
    expect(fixture.html).toContain(allEpisodes);
    const html = edit(fixture.html.replace(allEpisodes, '<div class="nvs nvsc"></div>'));
    expect(html).not.toContain('All Episodes');
    expect(html).not.toContain('series <a href="https://anichin.cafe/seri/renegade-immortal/">');
    const data = parseEpisodePage(html, fixture.pageUrl).data;
    expect(data.navigation.allEpisodes).toBeNull();
    expect(data.series).toEqual(series);
  });

  it('refuses a 200 page that is not an episode page: a series page', () => {
    const fixture = loadFixture('series', 'ongoing');
    expectFixtureError(
      { ...fixture, expectedError: { name: 'LayoutChangedError', pageKind: 'episode', missing: ['title', 'servers'] } },
      () => parseEpisodePage(fixture.html, 'https://anichin.cafe/renegade-immortal/'),
    );
  });
});

function contextFor(variant: VariantName): PageContext {
  return { origin: 'http://127.0.0.1:41234', host: '127.0.0.1:41234', variant: VARIANTS[variant] };
}

function lookup(predicate: (item: EpisodeItem, list: readonly EpisodeItem[]) => boolean): EpisodeLookup {
  for (const series of SERIES) {
    const list = episodesOf(series);
    const item = list.find((candidate) => predicate(candidate, list));
    if (item !== undefined) return findEpisode(episodeSlug(item)) as EpisodeLookup;
  }
  throw new Error('no such episode in the dataset');
}

const CASES: [string, EpisodeLookup][] = [
  ['a first episode (no Prev)', lookup((item, list) => item.episode === 1 && list.length > 2)],
  ['a middle episode, zero-padded', lookup((item) => item.episode === 7)],
  ['the -tamat- finale of a finished series (no Next)', lookup((item) => item.path.includes('-tamat-'))],
  ['a movie, its only episode', lookup((item) => item.episode === null)],
  ['an episode of a series without type or sub badge', lookup((item) => item.series.type === null || item.series.sub === null)],
];

describe.each(VARIANT_NAMES)('parseEpisodePage on simulated %s pages', (variant) => {
  const ctx = contextFor(variant);

  it.each(CASES)('%s', (_description, found) => {
    const parsed = parseEpisodePage(episodePage(ctx, found), `${ctx.origin}${found.item.path}`);
    expect(parsed.data).toEqual(expectedEpisode(ctx, found));
  });

  it(`prints the sub label ${VARIANTS[variant].episodeSubInsideType ? 'inside' : 'beside'} the type badge, and the type is read without it`, () => {
    const found = lookup((item) => item.series.type === 'Donghua' && item.series.sub === 'Sub');
    const html = episodePage(ctx, found);
    const nested = '<span class="epx"> Donghua <span class="lg">Sub</span></span>';
    expect(html.includes(nested)).toBe(ctx.variant.episodeSubInsideType);
    const { type, sub } = parseEpisodePage(html, `${ctx.origin}${found.item.path}`).data;
    expect({ type, sub }).toEqual({ type: 'Donghua', sub: 'Sub' });
  });

  it('refuses the same page after a redesign, and a series page', () => {
    const found = CASES[1]?.[1] as EpisodeLookup;
    expect(() => parseEpisodePage(redesign(episodePage(ctx, found)), `${ctx.origin}${found.item.path}`)).toThrow(LayoutChangedError);
    expect(() => parseEpisodePage(seriesPage(ctx, found.item.series), seriesUrl(ctx, found.item.series))).toThrow(
      'episode page: could not find title, servers',
    );
  });
});

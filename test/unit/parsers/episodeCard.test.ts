import { load } from 'cheerio/slim';
import { describe, expect, it } from 'vitest';
import { parseEpisodeCard } from '../../../src/parsers/cards/episodeCard.js';

const pageUrl = 'https://anichin.cafe/page/2/';

function cardOf(limit: string, tt: string, href = '/renegade-immortal-episode-124-subtitle-indonesia/', linkTitle = '') {
  const $ = load(`<article class="bs"><div class="bsx"><a href="${href}" title="${linkTitle}" class="tip">
    <div class="limit">${limit}</div><div class="tt">${tt}</div></a></div></article>`);
  const el = $('article.bs').get(0);
  if (el === undefined) throw new Error('no card');
  return parseEpisodeCard($, el, pageUrl);
}

describe('parseEpisodeCard', () => {
  it('reads every field of a full card', () => {
    const card = cardOf(
      '<div class="typez Donghua">Donghua</div><div class="bt"><span class="epx">Ep 124</span><span class="sb Sub">Sub</span></div><img data-src="/wp-content/uploads/RI.webp" src="data:image/gif;base64,R0lGOD">',
      '\n Renegade Immortal \n<h2 itemprop="headline">Renegade Immortal Episode 124 Subtitle Indonesia</h2>',
    );
    expect(card).toEqual({
      seriesTitle: 'Renegade Immortal',
      episodeTitle: 'Renegade Immortal Episode 124 Subtitle Indonesia',
      episode: 124,
      slug: 'renegade-immortal-episode-124-subtitle-indonesia',
      url: 'https://anichin.cafe/renegade-immortal-episode-124-subtitle-indonesia/',
      poster: 'https://anichin.cafe/wp-content/uploads/RI.webp',
      type: 'Donghua',
      sub: 'Sub',
    });
  });

  it.each([
    ['.epx label', '<span class="epx">Ep 12</span>', 'X Episode 99 Subtitle Indonesia', 12],
    ['half episode', '<span class="epx">Ep 12.5</span>', 'X Episode 12.5', 12.5],
    ['"Movie" means no episode', '<span class="epx">Movie</span>', 'X Episode 3 Movie', null],
    ['the title when .epx is missing', '', 'Soul Land 2 Episode 95 Subtitle Indonesia', 95],
    ['the title when .epx is unreadable', '<span class="epx">Ongoing</span>', 'X Episode 7 Subtitle Indonesia', 7],
    ['none anywhere', '', 'The Great Ruler Movie Subtitle Indonesia', null],
  ])('episode from %s', (_, limit, h2, expected) => {
    expect(cardOf(limit, `X<h2>${h2}</h2>`)?.episode).toBe(expected);
  });

  it.each([
    ['Shrouding the Heavens Episode 88 Subtitle Indonesia', 'Shrouding the Heavens'],
    ['Soul Land 2 Ep 95', 'Soul Land 2'],
    ['The Great Ruler Movie Subtitle Indonesia', 'The Great Ruler Movie'],
  ])('derives the series title from %j when .tt has no own text', (h2, expected) => {
    expect(cardOf('', `<h2>${h2}</h2>`)?.seriesTitle).toBe(expected);
  });

  it('takes the episode title from the link title when there is no h2', () => {
    const card = cardOf('<span class="epx">Ep 3</span>', 'Perfect World', '/perfect-world-episode-3/', 'Perfect World Episode 3');
    expect(card).toMatchObject({ seriesTitle: 'Perfect World', episodeTitle: 'Perfect World Episode 3', episode: 3 });
  });

  it('returns null without a usable link or any title', () => {
    expect(cardOf('', 'X<h2>X Episode 1</h2>', 'javascript:void(0)')).toBeNull();
    expect(cardOf('', '', '/x-episode-1/', '')).toBeNull();
  });
});

import { load } from 'cheerio/slim';
import { describe, expect, it } from 'vitest';
import { parseSeriesCard } from '../../../src/parsers/cards/seriesCard.js';

const pageUrl = 'https://anichin.cafe/genres/action/';

function cardOf(limit: string, tt: string, href = '/seri/soul-land/', linkTitle = 'Soul Land') {
  const $ = load(`<article class="bs"><div class="bsx"><a href="${href}" title="${linkTitle}" class="tip">
    <div class="limit">${limit}</div><div class="tt">${tt}</div></a></div></article>`);
  const el = $('article.bs').get(0);
  if (el === undefined) throw new Error('no card');
  return parseSeriesCard($, el, pageUrl);
}

describe('parseSeriesCard', () => {
  it('reads every field of a full card', () => {
    const card = cardOf(
      '<div class="typez Donghua">Donghua</div><div class="bt"><span class="epx">Ongoing</span><span class="sb Sub">Sub</span></div><img src="/wp-content/uploads/Soul-Land.jpg">',
      'Soul Land<h2 itemprop="headline">Soul Land</h2>',
    );
    expect(card).toEqual({
      title: 'Soul Land',
      slug: 'soul-land',
      url: 'https://anichin.cafe/seri/soul-land/',
      poster: 'https://anichin.cafe/wp-content/uploads/Soul-Land.jpg',
      type: 'Donghua',
      status: 'Ongoing',
      sub: 'Sub',
    });
  });

  it.each([
    ['own text of .tt, not the h2', 'Soul Land<h2>Soul Land (2018)</h2>', 'Soul Land'],
    ['h2 when .tt has no own text', '\n  <h2>Soul  Land\n</h2>', 'Soul Land'],
    ['link title when .tt is empty', '', 'Soul Land'],
    ['decoded entities', 'The King&#8217;s Avatar &amp; Co<h2>x</h2>', 'The King’s Avatar & Co'],
  ])('title: %s', (_, tt, expected) => {
    expect(cardOf('', tt)?.title).toBe(expected);
  });

  it.each([
    ['a status div wins over .epx', '<div class="status Completed">Completed</div><span class="epx">Ongoing</span>', 'Completed'],
    ['a status word in .epx', '<span class="epx">Upcoming</span>', 'Upcoming'],
    ['capitalisation is normalised', '<span class="epx">hIATUS</span>', 'Hiatus'],
    ['an episode label is not a status', '<span class="epx">Ep 12</span>', null],
    ['"Movie" is not a status', '<span class="epx">Movie</span>', null],
    ['an unknown status div is kept as written', '<div class="status Dropped">Dropped</div>', 'Dropped'],
    ['no badge at all', '', null],
  ])('status: %s', (_, limit, expected) => {
    expect(cardOf(limit, 'X')?.status).toBe(expected);
  });

  it.each([
    ['badge text', '<div class="typez ONA">ONA</div>', 'ONA'],
    ['"Live Action" from its classes when the text is empty', '<div class="typez Live Action"></div>', 'Live Action'],
    ['no badge', '', null],
    ['a badge with neither text nor type class', '<div class="typez"></div>', null],
  ])('type: %s', (_, limit, expected) => {
    expect(cardOf(limit, 'X')?.type).toBe(expected);
  });

  it('has null sub and poster when the card has neither', () => {
    expect(cardOf('<span class="epx">Ongoing</span>', 'X')).toMatchObject({ sub: null, poster: null });
  });

  it.each([
    ['no href', cardOf('', 'Soul Land', '', 'Soul Land')],
    ['a fragment-only href', cardOf('', 'Soul Land', '#', 'Soul Land')],
    ['a link to the site root', cardOf('', 'Soul Land', '/', 'Soul Land')],
    ['no title anywhere', cardOf('', '', '/seri/soul-land/', '')],
  ])('returns null for %s', (_, card) => {
    expect(card).toBeNull();
  });
});

import { load } from 'cheerio/slim';
import { describe, expect, it } from 'vitest';
import { allWithin, within } from '../../../src/parsers/scope.js';
import { loadFixture } from './fixture.js';

const isCard = (el: { name: string }, classes: readonly string[]) => el.name === 'article' && classes.includes('bs');

describe('allWithin', () => {
  it('finds what within finds, in document order, minus ads and the sidebar', () => {
    // home/page1 has card decoys in the ad rows, the floating ads and the sidebar.
    const $ = load(loadFixture('home', 'page1').html);
    const cards = allWithin($.root(), isCard);
    expect(cards).toEqual(within($.root(), 'article.bs').toArray());
    expect(cards.length).toBeGreaterThan(0);
    expect($('article.bs').length).toBeGreaterThan(cards.length);
  });

  it('walks every element of the selection, and nothing of an empty one', () => {
    const $ = load(
      '<div class="a"><article class="bs" id="1"></article></div><div class="kln"><article class="bs"></article></div><div class="a"><article class="bs" id="2"></article></div>',
    );
    expect(allWithin($('.a'), isCard).map((el) => el.attribs['id'])).toEqual(['1', '2']);
    expect(allWithin($('.missing'), isCard)).toEqual([]);
  });
});

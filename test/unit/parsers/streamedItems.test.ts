import { load } from 'cheerio/slim';
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { streamListItems, type StreamedMatcher } from '../../../src/parsers/streamedItems.js';
import { elementText, firstMatches, hasClass, type Matcher } from '../../../src/parsers/walk.js';
import { findSeries, findEpisode } from '../../simulator/episodes.js';
import { episodePage } from '../../simulator/pages/episodePage.js';
import { seriesPage } from '../../simulator/pages/seriesPage.js';
import { VARIANTS } from '../../simulator/variant.js';

const LIST_TAG = /<div\s[^>]*\bclass\s*=\s*["']?(?:[^"'>]*\s)?eplister[\s"'>]/i;
const ROLES = {
  link: (el) => el.name === 'a' && el.attribs['href'] !== undefined,
  num: (el) => el.classes.includes('epl-num'),
  title: (el) => el.classes.includes('epl-title'),
} satisfies Record<string, StreamedMatcher>;
/** The attributes the tests read: the roles' and every one the lists below carry. */
const KEPT = new Set(['href', 'title', 'class', 'data-x']);

/** What the tree gives for ROLES in each `.eplister li`: the first element of each role, its attributes and text. */
function treeItems(html: string) {
  const $ = load(html);
  const treeRoles: Record<string, Matcher> = {
    link: (el) => el.name === 'a' && el.attribs['href'] !== undefined,
    num: (el) => hasClass(el, 'epl-num'),
    title: (el) => hasClass(el, 'epl-title'),
  };
  return $('.eplister li')
    .toArray()
    .map((li) =>
      Object.fromEntries(
        Object.entries(firstMatches(li, treeRoles)).map(([role, el]) => [
          role,
          { attribs: keptOf((el as Element).attribs), text: $(el as Element).text() },
        ]),
      ),
    );
}

/** The tree's attributes that `kept` names. */
function keptOf(attribs: Record<string, string>, kept: ReadonlySet<string> = KEPT): Record<string, string> {
  return Object.fromEntries(Object.entries(attribs).filter(([name]) => kept.has(name)));
}

describe('streamListItems', () => {
  const before = '<div class="lastend"><a href="/ep-1/">First</a></div>';
  const after = '<div class="bixbox"><ul><li><a href="/not-an-episode/">Comment</a></li></ul></div>';

  it("reads the first element of each role per item, with its descendants' text and decoded entities, and cuts the list out", () => {
    const list =
      '<div class="eplister"><div class="ephead"><div class="epl-num">Ep</div></div><ul>' +
      '<li data-index="0"><a href="/ep-2/"><div class="epl-num">02</div><div class="epl-title">Two &amp; <b>bold</b>&#8217;s</div><div class="epl-title">ignored</div></a></li>' +
      "<li><a href='/ep-1/'><div class='x epl-num'>01</div></a></li>" +
      '</ul></div>';
    const streamed = streamListItems(before + list + after, LIST_TAG, ROLES, KEPT, (item) => item);
    expect(streamed?.rest).toBe(before + after);
    expect(streamed?.items).toEqual([
      {
        link: { attribs: { href: '/ep-2/' }, text: '02Two & bold’signored' },
        num: { attribs: { class: 'epl-num' }, text: '02' },
        title: { attribs: { class: 'epl-title' }, text: 'Two & bold’s' },
      },
      { link: { attribs: { href: '/ep-1/' }, text: '01' }, num: { attribs: { class: 'x epl-num' }, text: '01' } },
    ]);
  });

  it('ends items whose end tag the page leaves out, as an HTML parser does', () => {
    const list = '<div class="eplister"><ul><li><a href="/ep-3/">3</a><li><a href="/ep-2/">2</a><li><a href="/ep-1/">1</a></ul></div>';
    const streamed = streamListItems(list + after, LIST_TAG, ROLES, KEPT, (item) => item);
    expect(streamed?.items.map((item) => item.link?.attribs['href'])).toEqual(['/ep-3/', '/ep-2/', '/ep-1/']);
    expect(streamed?.rest).toBe(after);
  });

  it.each([
    ['Latin-1 only (read from a one-byte copy)', 'Café Épisode 2'],
    ['a character beyond Latin-1 (read as it is)', 'Soul Land • 斗罗大陆 Episode 2'],
    ['a character beyond the BMP (a surrogate pair)', 'Episode 2 🔥'],
  ])('keeps every character of a list with %s', (_kind, title) => {
    // The page before the list holds a character beyond Latin-1, as a breadcrumb's `›` does.
    const list = `<div class="eplister"><ul><li><a href="/ep-2/"><div class="epl-title">${title}</div></a></li></ul></div>`;
    const streamed = streamListItems(`<p>Home › Series</p>${list}${after}`, LIST_TAG, ROLES, KEPT, (item) => item);
    expect(streamed?.items[0]?.title?.text).toBe(title);
    expect(streamed?.rest).toBe(`<p>Home › Series</p>${after}`);
  });

  // Entities as htmlparser2 decodes them while it builds cheerio's tree: legacy names without a
  // semicolon in text but not before `=` in an attribute, numeric references, and none in scripts.
  it('decodes entities in texts and attributes as the tree has them', () => {
    const items = [
      '<li><a href="/ep-3/?a=1&amp;b=2&copy=3" title="Tom &amp; Jerry&#8217;s"><div class="epl-num">03</div><div class="epl-title">Fish &amp chips &notit; &#x2014; &lt;3</div></a></li>',
      '<li><a href="/ep-2/"><div class="epl-title">A<script>if (a &amp;&amp; b) x = "&lt;"</script>B<style>p::after { content: "&amp;" }</style>C &AMP; D</div></a></li>',
      '<li><a href="/ep-1/" data-x="&quot;q&quot;"><div class="epl-num">&#48;1</div><div class="epl-title">One <textarea>&amp;</textarea> &amp; <title>&amp;</title></div></a></li>',
    ];
    const html = `<div class="eplister"><ul>${items.join('')}</ul></div>`;
    const streamed = streamListItems(html, LIST_TAG, ROLES, KEPT, (item) => item);
    const tree = treeItems(html);
    expect(streamed?.items).toEqual(tree);
    expect(streamed?.items[0]?.link?.attribs).toEqual({ href: '/ep-3/?a=1&b=2&copy=3', title: 'Tom & Jerry’s' });
    expect(streamed?.items[0]?.title?.text).toBe('Fish & chips ¬it; — <3');
  });

  // The tokenizer reads a long list in pieces: a reference, a wide character or a text may fall on any piece's end.
  it('reads a list many times longer than a piece of what the tokenizer reads as the tree does, references and all', () => {
    const items = Array.from({ length: 1200 }, (_, i) => {
      const pad = 'x'.repeat(i % 37);
      const wide = i % 250 === 7 ? ' 斗罗大陆 › ' : ' ';
      return (
        `<li><a href="/ep-${i}/?a=1&amp;b=${i}" title="Tom &amp; Jerry&#8217;s ${pad}">` +
        `<div class="epl-num">${i}</div><div class="epl-title">${pad}Fish &amp chips${wide}&notit; &#x2014; &lt;3 &#8217;${pad}</div></a></li>`
      );
    });
    // One text longer than any piece, with no `>` in it.
    items.splice(600, 0, `<li><a href="/long/"><div class="epl-title">${'Long &amp; longer '.repeat(2000)}</div></a></li>`);
    const html = `<div class="eplister"><ul>${items.join('')}</ul></div>`;
    const streamed = streamListItems(before + html + after, LIST_TAG, ROLES, KEPT, (item) => item);
    const tree = treeItems(html);
    expect(html.length).toBeGreaterThan(300_000);
    expect(streamed?.items).toHaveLength(1201);
    expect(streamed?.items).toEqual(tree);
    expect(streamed?.items[7]?.title?.text).toBe('xxxxxxxFish & chips 斗罗大陆 › ¬it; — <3 ’xxxxxxx');
    expect(streamed?.items[1200]?.link?.attribs).toEqual({ href: '/ep-1199/?a=1&b=1199', title: `Tom & Jerry’s ${'x'.repeat(1199 % 37)}` });
    expect(streamed?.rest).toBe(before + after);
  });

  it('reads wide characters in a text twice the length of a piece, whatever its UTF-8 length', () => {
    // A text with no `>` in it is one piece with the end tag after it: 32,767 characters, whose first
    // 32,767 bytes of UTF-8 end on a whole character (32,737 ASCII and ten of the 24 CJK, 3 bytes each).
    const text = 'a'.repeat(32_737) + '斗罗大陆'.repeat(6);
    const html = `<div class="eplister"><ul><li><a href="/long/"><div class="epl-title">${text}</div></a></li></ul></div>`;
    const streamed = streamListItems(html, LIST_TAG, ROLES, KEPT, (item) => item);
    expect(streamed?.items).toHaveLength(1);
    expect(streamed?.items[0]?.title?.text).toBe(text);
  });

  it('keeps only the attributes asked for, the first of a repeated name, and still reads roles by class', () => {
    const list =
      '<div class="eplister"><ul><li data-index="0"><a href="/ep-2/" href="/other/" rel="bookmark" title="Two &amp; more">' +
      '<div class="epl-num" data-x="1">02</div></a></li></ul></div>';
    const streamed = streamListItems(list, LIST_TAG, ROLES, new Set(['href', 'title']), (item) => item);
    expect(streamed?.items).toEqual([
      { link: { attribs: { href: '/ep-2/', title: 'Two & more' }, text: '02' }, num: { attribs: {}, text: '02' } },
    ]);
  });

  // A page cut off in transfer may end anywhere in the list: in an opening tag, which the tree
  // leaves out, or right after one, which it keeps.
  it.each([
    ['inside an opening tag', '<li><a href="/ep-1/" title="One"'],
    ['inside an opening tag, after its name', '<li><a '],
    ['right after an opening tag', '<li><a href="/ep-1/" title="One">'],
    ['in a text', '<li><a href="/ep-1/" title="One"><div class="epl-num">0'],
  ])('reads a list the markup ends %s as the tree does', (_where, tail) => {
    const html = `<div class="eplister"><ul><li><a href="/ep-2/"><div class="epl-num">02</div></a></li>${tail}`;
    const streamed = streamListItems(html, LIST_TAG, ROLES, KEPT, (item) => item);
    expect(streamed?.items).toEqual(treeItems(html));
    expect(streamed?.items).toHaveLength(2);
  });

  it('is null when the markup has no such element', () => {
    expect(streamListItems(before + after, LIST_TAG, ROLES, KEPT, (item) => item)).toBeNull();
  });

  // The streamed reading must give what the tree gives: `firstMatches` and `elementText` per `li`.
  const ctx = { origin: 'http://127.0.0.1:41234', host: '127.0.0.1:41234', variant: VARIANTS.classic };
  const series = findSeries('shadow-chronicle')!;
  const episode = findEpisode('shadow-chronicle-episode-100-subtitle-indonesia')!;
  it.each([
    ["a series page's episode list", seriesPage(ctx, series), 'eplister', ['epl-num', 'epl-title', 'epl-sub', 'epl-date']],
    ["an episode page's list of the series", episodePage(ctx, episode), 'episodelist', ['playinfo', 'thumbnel']],
  ] as const)('reads %s as the tree does', (_kind, html, listClass, classes) => {
    const tag = new RegExp(`<div\\s[^>]*\\bclass\\s*=\\s*["']?(?:[^"'>]*\\s)?${listClass}[\\s"'>]`, 'i');
    const streamedRoles: Record<string, StreamedMatcher> = { link: ROLES.link, img: (el) => el.name === 'img' };
    const treeRoles: Record<string, Matcher> = {
      link: (el) => el.name === 'a' && el.attribs['href'] !== undefined,
      img: (el) => el.name === 'img',
    };
    for (const name of classes) {
      streamedRoles[name] = (el) => el.classes.includes(name);
      treeRoles[name] = (el) => hasClass(el, name);
    }
    const $ = load(html);
    // Every attribute the list carries is kept, so that the streamed parts have the tree's records.
    const everyAttribute = new Set(
      $(`.${listClass} *`)
        .toArray()
        .flatMap((el) => Object.keys(el.attribs)),
    );
    const streamed = streamListItems(html, tag, streamedRoles, everyAttribute, (item) => item);
    const tree = $(`.${listClass} li`)
      .toArray()
      .map((li) =>
        Object.fromEntries(
          Object.entries(firstMatches(li, treeRoles)).map(([role, el]) => [
            role,
            { attribs: (el as Element).attribs, text: elementText($, el as Element) },
          ]),
        ),
      );
    expect(tree.length).toBeGreaterThan(50);
    expect(
      streamed?.items.map((item) =>
        Object.fromEntries(Object.entries(item).map(([role, part]) => [role, { ...part!, text: part!.text.replace(/\s+/g, ' ').trim() }])),
      ),
    ).toEqual(tree);
  });
});

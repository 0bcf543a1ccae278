import { load } from 'cheerio/slim';
import { describe, expect, it } from 'vitest';
import { streamListItems } from '../../../src/parsers/streamedItems.js';
import { cleanText, parseEpisodeNumber, parseRating, parseReleaseDate, withoutNonText } from '../../../src/parsers/text.js';
import { elementText } from '../../../src/parsers/walk.js';

describe('cleanText', () => {
  it.each([
    ['  Renegade\n\t Immortal  ', 'Renegade Immortal'],
    ['Season\u00a05', 'Season 5'],
    ['\u00a0 \n', ''],
    // Each thing the no-change test looks for, alone in an otherwise clean text.
    ['Soul  Land', 'Soul Land'],
    ['Soul\tLand', 'Soul Land'],
    ['Soul\nLand', 'Soul Land'],
    ['Soul\u3000Land', 'Soul Land'],
    [' Soul Land', 'Soul Land'],
    ['Soul Land ', 'Soul Land'],
    ['\ufeffSoul Land', 'Soul Land'],
    ['Soul Land 2', 'Soul Land 2'],
    ['', ''],
    [undefined, ''],
    [null, ''],
  ])('%j → %j', (input, expected) => {
    expect(cleanText(input)).toBe(expected);
  });
});

describe('withoutNonText', () => {
  it.each([
    // Every C0 control but tab, LF and CR.
    ['A\u0000B\u0001C\u0008D\u000bE\u000cF\u000eG\u001bH\u001fI', 'ABCDEFGHI'],
    ['tab\tnew\nline\rkept', 'tab\tnew\nline\rkept'],
    // The noncharacters: U+FDD0–U+FDEF and the last two code points of each plane.
    ['a\ufdd0b\ufdefc\ufffed\uffffe', 'abcde'],
    ['a\u{1fffe}b\u{1ffff}c\u{2fffe}d\u{10fffe}e\u{10ffff}f', 'abcdef'],
    // Their neighbours are text: DEL, C1 controls, U+FDCF, U+FDF0, U+FFFD, U+FFFC, U+1FFFD, a lone surrogate's pair partner.
    ['\u007f\u0085\ufdcf\ufdf0\ufffd\ufffc\u{1fffd}斗罗大陆 😀', '\u007f\u0085\ufdcf\ufdf0\ufffd\ufffc\u{1fffd}斗罗大陆 😀'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(withoutNonText(input)).toBe(expected);
  });

  it('comes before the whitespace collapse in cleanText, so a control between spaces leaves one space', () => {
    expect(cleanText(' Soul \u0001 Land\u001b \ufffe')).toBe('Soul Land');
  });
});

// How the HTML parsers decode references to such characters, raw and referenced, in text and in
// attributes: to the character itself (then dropped), except NUL and surrogates, which the HTML
// standard decodes to U+FFFD, a character like any other.
describe('references to characters that are not text', () => {
  const markup = 'A&#1;B&#x1b;C&#X1F;D&#0008;E&#xFFFE;F&#65535;G&#xfdd0;H&#x10FFFF;I&#1J\u0001K\u0000L&#0;M&#xD800;N';
  const expected = 'ABCDEFGHIJKL\ufffdM\ufffdN';

  it('in a tree (cheerio, htmlparser2), text and attribute alike', () => {
    const $ = load(`<p title="${markup}">${markup}</p>`);
    const p = $('p').get(0);
    expect([elementText($, p), cleanText(p?.attribs['title'])]).toEqual([expected, expected]);
  });

  it('in a streamed list (entities), text and attribute alike', () => {
    const streamed = streamListItems(
      `<ul><li><a title="${markup}">${markup}</a></li></ul>`,
      /<ul>/,
      { link: (el) => el.name === 'a' },
      new Set(['title']),
      (item) => item,
    );
    const link = streamed?.items[0]?.link;
    expect([cleanText(link?.text), cleanText(link?.attribs['title'])]).toEqual([expected, expected]);
  });
});

describe('parseEpisodeNumber', () => {
  it.each([
    ['Ep 124', 124],
    ['Ep 01', 1],
    ['Ep12', 12],
    ['Episode 12', 12],
    ['Eps 19 - The Return - April 26, 2026', 19],
    ['Ep 12.5', 12.5],
    ['Ep 12,5', 12.5],
    ['124', 124],
    ['Renegade Immortal Episode 124 Subtitle Indonesia', 124],
    ['Soul Land 2 Episode 226-252 Subtitle Indonesia', 226],
    ['Movie', null],
    ['Ongoing', null],
    ['Soul Land 2', null],
    ['', null],
    [undefined, null],
  ])('%j → %j', (input, expected) => {
    expect(parseEpisodeNumber(input)).toBe(expected);
  });
});

describe('parseRating', () => {
  it.each([
    ['9.20', 9.2],
    [' 8.85 ', 8.85],
    ['9', 9],
    ['Rating 9,30', 9.3],
    ['0.00', 0],
    ['N/A', null],
    ['', null],
    [undefined, null],
  ])('%j → %j', (input, expected) => {
    expect(parseRating(input)).toBe(expected);
  });
});

describe('parseReleaseDate', () => {
  it.each([
    ['Apr 4, 2026', '2026-04-04'],
    ['Dec 02, 2024', '2024-12-02'],
    ['April 25, 2026', '2026-04-25'],
    ['Sept 9, 2025', '2025-09-09'],
    ['  Jul\u00a031,  2022 ', '2022-07-31'],
    ['Des 02, 2024', '2024-12-02'],
    ['Agustus 5, 2025', '2025-08-05'],
    ['5 Agustus 2025', '2025-08-05'],
    ['17 Mei 2024', '2024-05-17'],
    ['Okt. 1, 2023', '2023-10-01'],
    ['2025-12-28', '2025-12-28'],
    ['2025-12-28T10:33:00+07:00', '2025-12-28'],
    ['Feb 29, 2024', '2024-02-29'],
    ['Feb 29, 2025', null],
    ['Feb 30, 2026', null],
    ['Feb 29, 2000', '2000-02-29'],
    ['Feb 29, 2100', null],
    ['31 Juni 2025', null],
    ['Dec 31, 2025', '2025-12-31'],
    ['Jan 0, 2026', null],
    ['0999-05-01', null],
    ['2026-13-01', null],
    ['Foo 4, 2026', null],
    ['TBA', null],
    ['4 months ago', null],
    ['', null],
    [null, null],
  ])('%j → %j', (input, expected) => {
    expect(parseReleaseDate(input)).toBe(expected);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { TitleIndex, TITLE_SEARCH_PER_PAGE, type TitledSeries } from '../../../src/search/titleIndex.js';
import type { Series } from '../../simulator/dataset.js';
import { catalogSeries, plainPinyin } from '../../simulator/largeCatalog.js';

const ORIGIN = 'http://127.0.0.1:4000';
const CATALOG = catalogSeries(2000);

/** The series as the local catalog holds it: its card and the alternative-title field of its page. */
function entryOf(series: Series): TitledSeries {
  return {
    title: series.title,
    slug: series.slug,
    url: `${ORIGIN}/seri/${series.slug}/`,
    poster: `${ORIGIN}${series.poster}`,
    type: series.type,
    status: series.status,
    sub: series.sub,
    alternativeTitle: series.altTitles.length === 0 ? null : series.altTitles.join(', '),
  };
}

let index: TitleIndex;
const first = (query: string) => index.search(query, 1).results[0]?.slug;

beforeAll(() => {
  index = new TitleIndex();
  for (const series of CATALOG) index.upsert(entryOf(series));
});

describe('title search over 2,000 series', () => {
  // Renegade Immortal: alternative titles "Xian Ni Lu, 仙逆之路".
  it('finds a series first by its Chinese title, or the start of it', () => {
    expect(first('仙逆之路')).toBe('renegade-immortal');
    expect(first('仙逆')).toBe('renegade-immortal');
  });

  it('finds it first by its pinyin, with or without tone marks', () => {
    expect(first('xian ni lu')).toBe('renegade-immortal');
    expect(first('Xiān Nì Lù')).toBe('renegade-immortal');
    const toned =
      CATALOG.find((series) => series.altTitles.some((alt) => alt !== plainPinyin(alt) && alt === 'Shén Yǐng Wàn')) ??
      CATALOG.find((series) => series.altTitles.some((alt) => /[āáǎàīíǐìūúǔù]/.test(alt) && alt.split(' ').length >= 3))!;
    const pinyin = plainPinyin(toned.altTitles.find((alt) => alt !== plainPinyin(alt))!);
    expect(index.search(pinyin, 1).results.map((card) => card.slug)).toContain(toned.slug);
  });

  it('forgives one typo per word', () => {
    expect(first('renegade imortal')).toBe('renegade-immortal');
    expect(first('renegate immortal')).toBe('renegade-immortal');
    expect(first('renegaade immortall')).toBe('renegade-immortal');
  });

  it('forgives word prefixes', () => {
    expect(first('renega')).toBe('renegade-immortal');
    expect(first('rene imm')).toBe('renegade-immortal');
  });

  it('ignores case, accents and character width', () => {
    expect(first('RENEGADE IMMORTAL')).toBe('renegade-immortal');
    expect(first('Rénégade Immörtal')).toBe('renegade-immortal');
    expect(first('ＲＥＮＥＧＡＤＥ　ＩＭＭＯＲＴＡＬ')).toBe('renegade-immortal');
    expect(first('the emperors tomb')).toBe('the-emperors-tomb');
    const fullwidthSeason = CATALOG.find((series) => series.altTitles.some((alt) => /第[０-９]季/.test(alt)))!;
    const hanzi = fullwidthSeason.altTitles.find((alt) => /第[０-９]季/.test(alt))!;
    expect(first(hanzi.normalize('NFKC'))).toBe(fullwidthSeason.slug);
  });

  it('ranks the whole name above names that only contain the words', () => {
    expect(first('heaven devouring sovereign')).toBe('heaven-devouring-sovereign');
    const short = CATALOG.find(
      (series) =>
        series.title.split(' ').length === 2 && CATALOG.some((other) => other !== series && other.title.startsWith(`${series.title} `)),
    )!;
    expect(first(short.title)).toBe(short.slug);
  });

  it('pages 20 at a time, every match once, hasNextPage until the last page', () => {
    const pages = [];
    for (let page = 1; ; page++) {
      const answer = index.search('sword', page);
      pages.push(answer);
      if (!answer.pagination.hasNextPage) break;
    }
    expect(pages.length).toBeGreaterThan(2);
    expect(pages[0]!.results).toHaveLength(TITLE_SEARCH_PER_PAGE);
    expect(pages[0]!.pagination).toEqual({
      currentPage: 1,
      hasPrevPage: false,
      prevPage: null,
      hasNextPage: true,
      nextPage: 2,
      totalPages: pages.length,
    });
    expect(pages.at(-1)!.pagination).toMatchObject({
      currentPage: pages.length,
      hasPrevPage: true,
      prevPage: pages.length - 1,
      hasNextPage: false,
      nextPage: null,
    });
    const slugs = pages.flatMap((answer) => answer.results.map((card) => card.slug));
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(index.search('sword', pages.length + 1).results).toEqual([]);
  });

  it('answers results: [] on one page when nothing matches', () => {
    expect(index.search('qqzzxxkk', 1)).toEqual({
      results: [],
      pagination: { currentPage: 1, hasPrevPage: false, prevPage: null, hasNextPage: false, nextPage: null, totalPages: 1 },
    });
    expect(index.search('!!!', 1).results).toEqual([]);
  });

  it('ranks a query the same whichever queries came before it', () => {
    const queries = ['sword', 'sword saint', 'season 2', 'xian ni', 'rene imm', 'renegate immortal', '仙逆', 'the sea'];
    const fresh = () => {
      const own = new TitleIndex();
      for (const series of CATALOG) own.upsert(entryOf(series));
      return own;
    };
    const slugsOf = (own: TitleIndex, query: string) => own.search(query, 1).results.map((card) => card.slug);
    const alone = queries.map((query) => slugsOf(fresh(), query));
    const oneAfterAnother = fresh();
    expect(queries.map((query) => slugsOf(oneAfterAnother, query))).toEqual(alone);
    expect([...queries].reverse().map((query) => slugsOf(oneAfterAnother, query))).toEqual([...alone].reverse());
  });

  it('answers series cards', () => {
    const renegade = CATALOG.find((series) => series.slug === 'renegade-immortal')!;
    const { alternativeTitle: _alternative, ...card } = entryOf(renegade);
    expect(index.search('renegade immortal', 1).results[0]).toEqual(card);
  });
});

describe('the index follows the catalog', () => {
  it('finds a new name after an update, forgets a removed series, and counts each change', () => {
    const own = new TitleIndex();
    const tomb = entryOf(CATALOG.find((series) => series.slug === 'the-emperors-tomb')!);
    own.upsert(tomb);
    expect(own.version).toBe(1);
    expect(own.search('di wang mu', 1).results.map((card) => card.slug)).toEqual(['the-emperors-tomb']);
    own.upsert({ ...tomb, alternativeTitle: 'Makam Kaisar, 帝王墓' });
    expect(own.version).toBe(2);
    expect(own.size).toBe(1);
    expect(own.search('di wang mu', 1).results).toEqual([]);
    expect(own.search('makam kaisar', 1).results.map((card) => card.slug)).toEqual(['the-emperors-tomb']);
    expect(own.search('帝王墓', 1).results.map((card) => card.slug)).toEqual(['the-emperors-tomb']);
    own.remove('the-emperors-tomb');
    own.remove('the-emperors-tomb');
    expect(own.version).toBe(3);
    expect(own.search('tomb', 1).results).toEqual([]);
  });
});

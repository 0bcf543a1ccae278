import { describe, expect, it } from 'vitest';
import { CatalogNotReadyError } from '../../../src/crawler/errors.js';
import { createCatalogTitleSearch, type TitleFeed } from '../../../src/search/catalogSearch.js';
import type { TitledSeries } from '../../../src/search/titleIndex.js';

type Change = Parameters<Parameters<TitleFeed['onChange']>[0]>[0];

/** A local catalog whose state and changes the test sets. */
function fakeFeed(initial: TitledSeries[]) {
  const listeners = new Set<(change: Change) => void>();
  const state = { enabled: true, complete: false };
  const feed: TitleFeed = {
    onChange(listener) {
      for (const entry of initial) listener({ kind: 'upsert', entry });
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    readiness: () => state,
  };
  const emit = (change: Change) => listeners.forEach((listener) => listener(change));
  return { feed, state, emit, listeners };
}

const entry = (title: string, alternativeTitle: string | null): TitledSeries => {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return {
    title,
    slug,
    url: `https://site.example/seri/${slug}/`,
    poster: null,
    type: 'Donghua',
    status: 'Ongoing',
    sub: 'Sub',
    alternativeTitle,
  };
};

const RENEGADE = entry('Renegade Immortal', 'Xian Ni, 仙逆');
const SWORD = entry('Sword Sovereign', 'Jian Zun, 剑尊');
const CLOCK = Date.parse('2026-04-25T03:00:00Z');

function start(initial = [RENEGADE, SWORD]) {
  const fake = fakeFeed(initial);
  const search = createCatalogTitleSearch(fake.feed, { source: () => 'https://site.example', now: () => CLOCK, ttlSeconds: 600 });
  return { ...fake, search };
}

const bodyOf = (answer: { body: Buffer }) => JSON.parse(answer.body.toString('utf8'));

describe('the title search over the local catalog', () => {
  it('answers the success envelope with series cards, the pagination and whether the catalog is complete', () => {
    const { search } = start();
    const { alternativeTitle: _alt, ...card } = RENEGADE;
    expect(bodyOf(search.answer('仙逆', 1))).toEqual({
      status: 'success',
      data: { query: '仙逆', results: [card] },
      pagination: { currentPage: 1, hasPrevPage: false, prevPage: null, hasNextPage: false, nextPage: null, totalPages: 1 },
      meta: { source: 'https://site.example', fetchedAt: '2026-04-25T03:00:00.000Z', catalogComplete: false },
    });
    expect(bodyOf(search.answer('nothing like it', 1)).data.results).toEqual([]);
  });

  it('gives the cache another key after any change of the index or of completeness, and the same key otherwise', () => {
    const { search, emit, state } = start();
    const first = search.cacheKeySuffix();
    expect(search.cacheKeySuffix()).toBe(first);
    emit({ kind: 'upsert', entry: entry('Soul Land', 'Douluo Dalu, 斗罗大陆') });
    const afterAdd = search.cacheKeySuffix();
    expect(afterAdd).not.toBe(first);
    expect(bodyOf(search.answer('douluo', 1)).data.results.map((card: { slug: string }) => card.slug)).toEqual(['soul-land']);
    state.complete = true;
    expect(search.cacheKeySuffix()).not.toBe(afterAdd);
    expect(bodyOf(search.answer('douluo', 1)).meta.catalogComplete).toBe(true);
    emit({ kind: 'remove', slug: 'soul-land' });
    expect(bodyOf(search.answer('douluo', 1)).data.results).toEqual([]);
    expect(search.size).toBe(2);
  });

  it('keeps the ETag while the answer reads the same', () => {
    const { search, emit } = start();
    const before = search.answer('sword', 1).etag;
    emit({ kind: 'upsert', entry: entry('Soul Land', null) });
    expect(search.answer('sword', 1).etag).toBe(before);
    expect(search.answer('renegade', 1).etag).not.toBe(before);
  });

  it('refuses while the crawler is off or nothing is held yet, with CatalogNotReadyError', () => {
    const { search, state, emit } = start([]);
    expect(() => search.answer('sword', 1)).toThrow(CatalogNotReadyError);
    expect(() => search.cacheKeySuffix()).toThrow(CatalogNotReadyError);
    emit({ kind: 'upsert', entry: SWORD });
    expect(bodyOf(search.answer('sword', 1)).data.results).toHaveLength(1);
    state.enabled = false;
    expect(() => search.answer('sword', 1)).toThrow(expect.objectContaining({ reason: 'disabled' }));
  });

  it('stops following the catalog when closed', () => {
    const { search, listeners } = start();
    expect(listeners.size).toBe(1);
    search.close();
    expect(listeners.size).toBe(0);
  });
});

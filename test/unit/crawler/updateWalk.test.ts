import { describe, expect, it } from 'vitest';
import { walkUpdatePage } from '../../../src/crawler/updateWalk.js';

const known = (...slugs: string[]) => slugs.map((slug) => ({ slug, known: true }));

describe('the update walk', () => {
  const before = ['a', 'b', 'c', 'd', 'e', 'f'];

  it('stops at once when nothing moved', () => {
    expect(walkUpdatePage(known('a', 'b', 'c'), before, new Set(), false)).toEqual({ changed: [], stop: true });
  });

  it('takes the series that moved to the top, and stops where the old order resumes', () => {
    const movedUp = new Set<string>();
    expect(walkUpdatePage(known('d', 'b', 'a', 'c', 'e'), before, movedUp, false)).toEqual({ changed: ['d', 'b'], stop: true });
    expect(movedUp).toEqual(new Set(['d', 'b']));
  });

  it('takes a new series and one whose card changed', () => {
    const cards = [{ slug: 'new', known: false }, { slug: 'a', known: false }, ...known('b', 'c')];
    expect(walkUpdatePage(cards, before, new Set(), false)).toEqual({ changed: ['new', 'a'], stop: true });
  });

  it('passes over a series that is gone from the list', () => {
    // "a" was removed from the site; "c" moved up.
    expect(walkUpdatePage(known('c', 'b', 'd'), before, new Set(), false)).toEqual({ changed: ['c'], stop: true });
  });

  it('goes on to the next page when the page ends on one card in its old place, and on the last page one card in its old place is enough', () => {
    const movedUp = new Set<string>();
    expect(walkUpdatePage(known('e', 'f', 'a'), before, movedUp, false)).toEqual({ changed: ['e', 'f'], stop: false });
    expect(walkUpdatePage(known('b', 'c'), before, movedUp, false)).toEqual({ changed: [], stop: true });
    expect(walkUpdatePage(known('f', 'e'), before, new Set(), true)).toEqual({ changed: ['f'], stop: true });
  });
});

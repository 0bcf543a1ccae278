import { load } from 'cheerio/slim';
import { describe, expect, it } from 'vitest';
import { currentPageOf, parsePagination } from '../../../src/parsers/pagination.js';

function paginationOf(html: string, pageUrl: string) {
  const $ = load(`<div class="postbody">${html}</div>`);
  return parsePagination($, $('.postbody'), pageUrl);
}

const wp = (...links: string[]) => `<div class="pagination">${links.join('\n')}</div>`;
const a = (href: string, text: string, cls = 'page-numbers') => `<a class="${cls}" href="${href}">${text}</a>`;
const current = (n: number) => `<span aria-current="page" class="page-numbers current">${n}</span>`;
const dots = '<span class="page-numbers dots">&hellip;</span>';

describe('parsePagination: WordPress div.pagination', () => {
  it('reads page 1 of 50 (1 2 3 … 50)', () => {
    const html = wp(
      current(1),
      a('/page/2/?s=a', '2'),
      a('/page/3/?s=a', '3'),
      dots,
      a('/page/50/?s=a', '50'),
      a('/page/2/?s=a', 'Next &raquo;', 'next page-numbers'),
    );
    expect(paginationOf(html, 'https://anichin.cafe/?s=a')).toEqual({
      currentPage: 1,
      hasPrevPage: false,
      prevPage: null,
      hasNextPage: true,
      nextPage: 2,
      totalPages: 50,
    });
  });

  it('reads page 2 of 6 where the first-page links carry no number', () => {
    const html = wp(
      a('https://anichin.cafe/ongoing/', '&laquo; Previous', 'prev page-numbers'),
      a('https://anichin.cafe/ongoing/', '1'),
      current(2),
      a('/ongoing/page/3/', '3'),
      a('/ongoing/page/4/', '4'),
      dots,
      a('/ongoing/page/6/', '6'),
      a('/ongoing/page/3/', 'Next &raquo;', 'next page-numbers'),
    );
    expect(paginationOf(html, 'https://anichin.cafe/ongoing/page/2/')).toEqual({
      currentPage: 2,
      hasPrevPage: true,
      prevPage: 1,
      hasNextPage: true,
      nextPage: 3,
      totalPages: 6,
    });
  });

  it('reads the last page (no next link)', () => {
    const html = wp(
      a('/ongoing/page/5/', '&laquo; Previous', 'prev page-numbers'),
      a('/ongoing/', '1'),
      dots,
      a('/ongoing/page/4/', '4'),
      a('/ongoing/page/5/', '5'),
      current(6),
    );
    expect(paginationOf(html, 'https://anichin.cafe/ongoing/page/6/')).toEqual({
      currentPage: 6,
      hasPrevPage: true,
      prevPage: 5,
      hasNextPage: false,
      nextPage: null,
      totalPages: 6,
    });
  });

  it('reads ?paged=N links and falls back to the URL when span.current is missing', () => {
    const html = wp(
      a('?s=soul&paged=2', 'Prev', 'prev page-numbers'),
      a('?s=soul&paged=4', 'Next', 'next page-numbers'),
      a('?s=soul&paged=9', '9'),
    );
    expect(paginationOf(html, 'https://anichin.cafe/?s=soul&paged=3')).toEqual({
      currentPage: 3,
      hasPrevPage: true,
      prevPage: 2,
      hasNextPage: true,
      nextPage: 4,
      totalPages: 9,
    });
  });

  it('uses the neighbouring page when a prev/next href is unreadable', () => {
    const html = wp(a('#', 'Prev', 'prev page-numbers'), current(4), a('javascript:void(0)', 'Next', 'next page-numbers'));
    expect(paginationOf(html, 'https://anichin.cafe/ongoing/page/4/')).toMatchObject({ prevPage: 3, nextPage: 5 });
  });
});

describe('parsePagination: theme div.hpage', () => {
  it('resolves relative query links against the page URL, not the site root', () => {
    const html = `<div class="hpage"><a href="?page=1&amp;status=&amp;type=&amp;order=popular" class="l">Previous</a>
      <a href="?page=3&amp;status=&amp;type=&amp;order=popular" class="r">Next</a></div>`;
    expect(paginationOf(html, 'https://anichin.cafe/seri/?order=popular&page=2')).toEqual({
      currentPage: 2,
      hasPrevPage: true,
      prevPage: 1,
      hasNextPage: true,
      nextPage: 3,
      totalPages: null,
    });
  });

  it('reads home page 1 (no a.l)', () => {
    const html = '<div class="hpage"><a href="https://anichin.cafe/page/2/" class="r">Next</a></div>';
    expect(paginationOf(html, 'https://anichin.cafe/')).toEqual({
      currentPage: 1,
      hasPrevPage: false,
      prevPage: null,
      hasNextPage: true,
      nextPage: 2,
      totalPages: null,
    });
  });

  it('reads a prev link to the bare home URL as page 1', () => {
    const html = '<div class="hpage"><a href="/" class="l">Previous</a><a href="/page/3/" class="r">Next</a></div>';
    expect(paginationOf(html, 'https://anichin.cafe/page/2/')).toMatchObject({ currentPage: 2, prevPage: 1, nextPage: 3 });
  });

  it('reads indexed array parameters and an empty page parameter', () => {
    const html =
      '<div class="hpage"><a href="?page=&amp;genre%5B0%5D=action" class="l">Previous</a><a href="?page=3&amp;genre%5B0%5D=action&amp;genre%5B1%5D=fantasy" class="r">Next</a></div>';
    expect(paginationOf(html, 'https://anichin.cafe/seri/?genre%5B0%5D=action&page=2')).toMatchObject({
      currentPage: 2,
      prevPage: 1,
      nextPage: 3,
    });
  });

  it('knows the total on the last page (no a.r)', () => {
    const html = '<div class="hpage"><a href="?page=6&amp;order=update" class="l">Previous</a></div>';
    expect(paginationOf(html, 'https://anichin.cafe/seri/?order=update&page=7')).toEqual({
      currentPage: 7,
      hasPrevPage: true,
      prevPage: 6,
      hasNextPage: false,
      nextPage: null,
      totalPages: 7,
    });
  });
});

describe('parsePagination without a widget', () => {
  it.each([
    ['https://anichin.cafe/?s=zzz', { currentPage: 1, hasPrevPage: false, prevPage: null, totalPages: 1 }],
    ['https://anichin.cafe/ongoing/page/4/', { currentPage: 4, hasPrevPage: true, prevPage: 3, totalPages: 4 }],
    ['https://anichin.cafe/seri/?order=popular&page=3', { currentPage: 3, hasPrevPage: true, prevPage: 2, totalPages: 3 }],
  ])('on %s the page is the last one', (pageUrl, expected) => {
    expect(paginationOf('<div class="listupd"></div>', pageUrl)).toEqual({
      ...expected,
      hasNextPage: false,
      nextPage: null,
    });
  });
});

describe('currentPageOf', () => {
  it.each([
    ['https://anichin.cafe/', 1],
    ['https://anichin.cafe/page/7/', 7],
    ['https://anichin.cafe/page/3/?s=soul', 3],
    ['https://anichin.cafe/ongoing/page/12', 12],
    ['https://anichin.cafe/seri/?status=&page=5&order=update', 5],
    ['https://anichin.cafe/?s=a&paged=2', 2],
    ['https://anichin.cafe/seri/?page=0', 1],
    ['https://anichin.cafe/seri/?page=abc', 1],
    ['https://anichin.cafe/seri/page-of-fate/', 1],
  ])('%s → %d', (pageUrl, expected) => {
    expect(currentPageOf(pageUrl)).toBe(expected);
  });
});

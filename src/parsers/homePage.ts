import type { Cheerio, CheerioAPI } from 'cheerio/slim';
import type { AnyNode, Element } from 'domhandler';
import type { HomeData, RecommendationGroup, SliderItem } from '../contract/schemas.js';
import { LayoutChangedError } from './errors.js';
import { parseEpisodeCard } from './cards/episodeCard.js';
import { parseSeriesCard } from './cards/seriesCard.js';
import { cardsIn, emptyListingError } from './listing.js';
import { parsePagination } from './pagination.js';
import { allWithin, blockByHeading, firstWithin, listingMarkup, loadMainColumn } from './scope.js';
import { cleanText } from './text.js';
import type { ParsedPage } from './types.js';
import { imageCandidateUrl, linkTarget } from './url.js';
import { elementText, firstMatch, firstMatches, hasAncestorWithin, hasClass, type Matcher } from './walk.js';

// Some installs localise the section headings (Indonesian "Rilisan Terbaru").
const POPULAR_TODAY_HEADINGS = ['popular today', 'populer hari ini'];
const LATEST_RELEASE_HEADINGS = ['latest release', 'rilisan terbaru'];

/** Home `/` or `/page/N/`: slider, Popular Today, Latest Release (paged), genre recommendations. */
export function parseHomePage(html: string, pageUrl: string): ParsedPage<HomeData> {
  // Everything the home page gives is in its main column (slider included).
  const { $, main } = loadMainColumn(listingMarkup(html));
  const data: HomeData = { slider: [], popularToday: [], latestRelease: [], recommendations: [] };
  const missing: string[] = [];

  data.slider = parseSlider($, pageUrl);
  if (data.slider.length === 0) missing.push('slider');

  const popularBlock = homeBlock($, main, 'hothome', POPULAR_TODAY_HEADINGS);
  // Popular Today is `.listupd.normal` on most installs, `.listupd.popularslider` on others.
  const popularList = listIn($, popularBlock);
  data.popularToday = popularList ? cardsIn($, popularList, pageUrl, parseEpisodeCard) : [];
  if (data.popularToday.length === 0) missing.push('popularToday');

  data.recommendations = parseRecommendations($, main, pageUrl);
  if (data.recommendations.length === 0) missing.push('recommendations');

  const latestBlock = homeBlock($, main, 'latesthome', LATEST_RELEASE_HEADINGS);
  const latestList = listIn($, latestBlock);
  data.latestRelease = latestList ? cardsIn($, latestList, pageUrl, parseEpisodeCard) : [];
  if (latestBlock === null || data.latestRelease.length === 0) {
    throw (
      emptyListingError('home', 'latestRelease', latestList, pageUrl, missing) ??
      new LayoutChangedError('home', ['latestRelease.cards', ...missing])
    );
  }

  return { data, pagination: parsePagination($, latestBlock, pageUrl), missing };
}

/** The home block whose `.releases` header has `marker` as a class, else the one titled by one of `headings`. */
function homeBlock($: CheerioAPI, main: Cheerio<AnyNode>, marker: string, headings: readonly string[]): Cheerio<Element> | null {
  const marked = firstWithin(main, (_el, classes) => classes.includes('releases') && classes.includes(marker));
  if (marked !== undefined) return $(marked).parent();
  return blockByHeading($, $(allWithin(main, (_el, classes) => classes.includes('releases'))), headings);
}

/** The block's first `.listupd`; null when there is no block or no list. */
function listIn($: CheerioAPI, block: Cheerio<Element> | null): Cheerio<Element> | null {
  const list = block?.[0] === undefined ? undefined : firstMatch(block[0], (_el, classes) => classes.includes('listupd'));
  return list === undefined ? null : $(list);
}

function parseSlider($: CheerioAPI, pageUrl: string): SliderItem[] {
  const slider = firstWithin($.root(), (el) => el.attribs['id'] === 'slidertwo');
  let slides = slider === undefined ? [] : allWithin($(slider), (_el, classes) => classes.includes('swiper-slide'));
  if (slides.length === 0) slides = allWithin($.root(), (_el, classes) => classes.includes('swiper-slide') && classes.includes('item'));
  const items: SliderItem[] = [];
  // Swiper's loop mode clones slides as `.swiper-slide-duplicate`; they repeat real ones.
  for (const slide of slides.filter((el) => !hasClass(el, 'swiper-slide-duplicate'))) {
    const item = sliderItem($, slide, pageUrl);
    if (item !== null) items.push(item);
  }
  return items;
}

function sliderItem($: CheerioAPI, slide: Element, pageUrl: string): SliderItem | null {
  const parts = firstMatches(slide, {
    titleLink: (el) => el.name === 'a' && hasAncestorWithin(el, slide, (ancestor) => ancestor.name === 'h2'),
    watchLink: (el, classes) => el.name === 'a' && classes.includes('watch'),
    backdrop: (_el, classes) => classes.includes('backdrop'),
    synopsis: (el) => el.name === 'p' && hasAncestorWithin(el, slide, (ancestor) => hasClass(ancestor, 'info')),
  });
  const link = parts.titleLink;
  // data-jtitle holds the full title; the link text can be a shortened display form.
  const title = cleanText(link?.attribs['data-jtitle']) || elementText($, link);
  const target = linkTarget(link?.attribs['href'] ?? parts.watchLink?.attribs['href'], pageUrl);
  if (!title || target === null) return null;
  return {
    title,
    ...target,
    banner: parts.backdrop === undefined ? null : backdropUrl(parts.backdrop, pageUrl),
    synopsis: elementText($, parts.synopsis) || null,
  };
}

// The banner is a CSS background (`background-image:url('…')`, quotes optional), or a lazy
// `data-bg` / `data-src` on installs that defer it. CSS's `url` is case-insensitive; the cases are
// spelled out rather than given by the `i` flag for speed only (the back-reference compares faster).
const BACKGROUND_URL = /[uU][rR][lL]\(\s*(['"]?)(.*?)\1\s*\)/;

function backdropUrl(backdrop: Element, pageUrl: string): string | null {
  const fromStyle = BACKGROUND_URL.exec(backdrop.attribs['style'] ?? '')?.[2];
  return (
    imageCandidateUrl(fromStyle, pageUrl) ??
    imageCandidateUrl(backdrop.attribs['data-bg'], pageUrl) ??
    imageCandidateUrl(backdrop.attribs['data-src'], pageUrl)
  );
}

// Genre tabs: each `ul.nav-tabs a[href="#series-759"]` names the `div.tab-pane#series-759` holding its cards.
function parseRecommendations($: CheerioAPI, main: Cheerio<AnyNode>, pageUrl: string): RecommendationGroup[] {
  const seriesGen = firstWithin(main, (_el, classes) => classes.includes('series-gen'));
  const scope = seriesGen !== undefined ? $(seriesGen) : main;
  const panes = new Map(allWithin(scope, (_el, classes) => classes.includes('tab-pane')).map((pane) => [pane.attribs['id'], pane]));
  const groups: RecommendationGroup[] = [];
  // The scope is the document itself on a page without a main column; the ancestor test then runs to its top.
  for (const tab of allWithin(scope, isGenreTab(scope[0] as Element))) {
    const genre = elementText($, tab);
    const id = (tab.attribs['href'] ?? '').slice(1);
    if (!genre || !id) continue;
    const pane = panes.get(id);
    groups.push({ genre, items: pane === undefined ? [] : cardsIn($, $(pane), pageUrl, parseSeriesCard) });
  }
  return groups;
}

/** `ul.nav-tabs li a[href^="#"]` below `root`. */
function isGenreTab(root: Element): Matcher {
  return (el) =>
    el.name === 'a' &&
    (el.attribs['href'] ?? '').startsWith('#') &&
    hasAncestorWithin(el, root, (ancestor) => ancestor.name === 'li') &&
    hasAncestorWithin(el, root, (ancestor) => ancestor.name === 'ul' && hasClass(ancestor, 'nav-tabs'));
}

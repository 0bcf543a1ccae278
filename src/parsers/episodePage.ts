import type { CheerioAPI } from 'cheerio/slim';
import { isTag, type Element } from 'domhandler';
import type { Episode, EpisodeListItem, PageLink } from '../contract/series.js';
import { canonicalUrl } from './canonical.js';
import { parseDownloads } from './detail/downloads.js';
import { parseVideoServers } from './detail/videoServers.js';
import { LayoutChangedError } from './errors.js';
import { loadMainColumnBlocks, mainColumnMarkup } from './scope.js';
import { streamListItems, type StreamedMatcher } from './streamedItems.js';
import { cleanText, parseEpisodeNumber, parseReleaseDate } from './text.js';
import type { ParsedPage } from './types.js';
import { absoluteUrl, IMAGE_ATTRIBUTES, imageUrl, linkTarget, slugFromUrl } from './url.js';
import {
  allMatches,
  elementText,
  firstMatch,
  firstMatches,
  hasAncestorWithin,
  hasClass,
  insideClass,
  selectionOf,
  type Matcher,
} from './walk.js';

// The page's blocks, found in one walk of the main column rather than one selector query each.
const EPISODE_BLOCKS = {
  // The player block; a page without it (a series page, a list, a redesign) is not an episode page.
  megavid: (_el, classes) => classes.includes('megavid'),
  // The title block: inside the player block on most installs, after it on a sister site.
  titleBlock: (_el, classes) => classes.includes('item') && classes.includes('meta'),
  breadcrumb: (_el, classes) => classes.includes('ts-breadcrumb'),
  headlist: (_el, classes) => classes.includes('headlist'),
  singleInfo: (_el, classes) => classes.includes('single-info'),
  partOfSeries: (el) => el.attribs['itemprop'] === 'partOfSeries',
} satisfies Record<string, Matcher>;

type Blocks = Partial<Record<keyof typeof EPISODE_BLOCKS, Element>>;

// The parts of the player block, of the title block and of its meta line, found in one walk each.
const PLAYER_PARTS = {
  // Installs without `.item.meta` keep the meta line in `.lm` inside the player.
  meta: (_el, classes) => classes.includes('lm'),
  title: (el) => el.name === 'h1',
  allEpisodes: (el) => el.name === 'a' && insideClass(el, 'nvsc'),
  poster: (el) => el.name === 'img' && insideClass(el, 'tb'),
  naveps: (_el, classes) => classes.includes('naveps'),
} satisfies Record<string, Matcher>;

const TITLE_BLOCK_PARTS = {
  title: (el) => el.name === 'h1',
  poster: (el) => el.name === 'img' && insideClass(el, 'tb'),
} satisfies Record<string, Matcher>;

const META_PARTS = {
  released: (_el, classes) => classes.includes('updated'),
  episodeNumber: (el) => el.name === 'meta' && el.attribs['itemprop'] === 'episodeNumber',
  type: (_el, classes) => classes.includes('epx'),
  language: (_el, classes) => classes.includes('lg'),
  status: (el, classes) => classes.includes('status') && insideClass(el, 'year'),
} satisfies Record<string, Matcher>;

/** An episode page `/{slug}/`: the video servers, downloads, navigation and the series' episode list. */
export function parseEpisodePage(html: string, pageUrl: string): ParsedPage<Episode> {
  // The column is cut once; the list is read off it as it streams by, and the rest is parsed.
  const column = mainColumnMarkup(html);
  const list = readEpisodeList(column, pageUrl);
  const { $, main, found: blocks } = loadMainColumnBlocks(list?.rest ?? column, EPISODE_BLOCKS);
  const megavid = selectionOf($, blocks.megavid);
  const player = blocks.megavid === undefined ? {} : firstMatches(blocks.megavid, PLAYER_PARTS);
  const titleBlock = blocks.titleBlock === undefined ? {} : firstMatches(blocks.titleBlock, TITLE_BLOCK_PARTS);
  const metaLine = blocks.titleBlock ?? player.meta;
  const meta = metaLine === undefined ? {} : firstMatches(metaLine, META_PARTS);
  const title = elementText($, titleBlock.title ?? player.title);
  const servers = parseVideoServers($, megavid, pageUrl);
  if (!title || servers.length === 0)
    throw new LayoutChangedError('episode', [...(title ? [] : ['title']), ...(servers.length > 0 ? [] : ['servers'])]);

  const allEpisodes = absoluteUrl(player.allEpisodes?.attribs['href'], pageUrl);
  const releaseDateText = elementText($, meta.released) || null;
  const episodes = list?.items ?? null;
  const infoPoster = blocks.singleInfo && firstMatch(blocks.singleInfo, (el) => el.name === 'img' && insideClass(el, 'thumb'));
  const url = canonicalUrl(html, pageUrl);
  const data: Episode = {
    title,
    slug: slugFromUrl(url) ?? '',
    url,
    episode: parseEpisodeNumber(meta.episodeNumber?.attribs['content']) ?? parseEpisodeNumber(title),
    series: parseSeries($, blocks, allEpisodes, pageUrl),
    poster: imageUrl(titleBlock.poster ?? player.poster, pageUrl) ?? imageUrl(infoPoster, pageUrl),
    type: ownText($, meta.type) || null,
    sub: elementText($, meta.language) || elementText($, meta.status) || null,
    releaseDate: parseReleaseDate(releaseDateText),
    releaseDateText,
    servers,
    downloads: parseDownloads($, main, pageUrl),
    navigation: { ...parseNavigation($, player.naveps, pageUrl), allEpisodes },
    episodes: episodes ?? [],
  };
  return { data, pagination: null, missing: episodes === null ? ['episodes'] : [] };
}

/**
 * The type badge's own text. The real site nests the sub label inside it
 * (`<span class="epx"> Donghua <span class="lg">Sub</span></span>`); other installs
 * put it beside it. Either way the label is read on its own (`META_PARTS.language`), not as part of the type.
 */
function ownText($: CheerioAPI, badge: Element | undefined): string {
  if (badge === undefined) return '';
  return cleanText($.text(badge.children.filter((node) => !(isTag(node) && hasClass(node, 'lg')))));
}

/**
 * The episode's series. Episode slugs do not always start with the series slug, so it comes from
 * the page's links to the series: "All Episodes", the "series" link in the meta line, the episode
 * list's header; its title from the breadcrumb or those links.
 */
function parseSeries($: CheerioAPI, blocks: Blocks, allEpisodes: string | null, pageUrl: string): Episode['series'] {
  // `.year a` (the last) in the title block and `.det h3 a` (the first) in the list's header, as walks
  // below each block rather than selector queries, which compile their selectors on every call (speed only).
  const yearBlock = blocks.titleBlock ?? blocks.megavid;
  const yearLink =
    yearBlock &&
    allMatches(yearBlock, (el) => el.name === 'a' && hasAncestorWithin(el, yearBlock, (year) => hasClass(year, 'year'))).at(-1);
  const headlist = blocks.headlist;
  const underDet = (h3: Element) =>
    h3.name === 'h3' && headlist !== undefined && hasAncestorWithin(h3, headlist, (det) => hasClass(det, 'det'));
  const headLink = headlist && firstMatch(headlist, (el) => el.name === 'a' && hasAncestorWithin(el, headlist, underDet));
  const url = allEpisodes ?? absoluteUrl(yearLink?.attribs['href'] ?? headLink?.attribs['href'], pageUrl);
  const slug = url === null ? null : slugFromUrl(url);
  if (url === null || slug === null) return null;
  const crumbs = blocks.breadcrumb === undefined ? [] : allMatches(blocks.breadcrumb, (el) => el.name === 'a');
  const linksHere = (link: Element | undefined) => link !== undefined && absoluteUrl(link.attribs['href'], pageUrl) === url;
  const title =
    elementText($, crumbs.find(linksHere)) ||
    [yearLink, headLink].map((link) => (linksHere(link) ? elementText($, link) : '')).find(Boolean) ||
    elementText($, blocks.partOfSeries);
  return title ? { title, slug, url } : null;
}

// "Prev" and "Next" are links with rel=prev / rel=next; at either end of the series the theme
// prints a `span.nolink` instead. Installs that drop `rel` still label them "Prev" / "Next".
function parseNavigation(
  $: CheerioAPI,
  naveps: Element | undefined,
  pageUrl: string,
): { previous: PageLink | null; next: PageLink | null } {
  const navigation: { previous: PageLink | null; next: PageLink | null } = { previous: null, next: null };
  const links = naveps === undefined ? [] : allMatches(naveps, (el) => el.name === 'a' && el.attribs['href'] !== undefined);
  for (const link of links) {
    const rel = (link.attribs['rel'] ?? '').toLowerCase();
    const label = elementText($, link).toLowerCase();
    const direction =
      rel === 'prev' || /^(?:prev|sebelumnya)/.test(label)
        ? 'previous'
        : rel === 'next' || /^(?:next|selanjutnya)/.test(label)
          ? 'next'
          : null;
    if (direction !== null && navigation[direction] === null) navigation[direction] = linkTarget(link.attribs['href'], pageUrl);
  }
  return navigation;
}

const LIST_ITEM_ROLES = {
  link: (el) => el.name === 'a' && el.attribs['href'] !== undefined,
  img: (el) => el.name === 'img',
  // The entry's title: `h4` on today's site, `h3` on the later snapshot and the sister sites.
  heading: (el) => (el.name === 'h3' || el.name === 'h4') && el.parent?.classes.includes('playinfo') === true,
  line: (el) => el.name === 'span' && el.parent?.classes.includes('playinfo') === true && !el.classes.includes('epx'),
} satisfies Record<string, StreamedMatcher>;

// The attributes the roles and the item reader read: the link's, and the image's for its URL and title.
const LIST_ITEM_ATTRIBUTES: ReadonlySet<string> = new Set(['href', 'title', ...IMAGE_ATTRIBUTES]);

// The list's opening tag: any element whose class list holds `episodelist`.
const EPISODE_LIST_TAG = /<[a-z][\w-]*\s[^>]*\bclass\s*=\s*["']?(?:[^"'>]*\s)?episodelist[\s"'>]/i;

/**
 * `div.episodelist > ul > li`: "Eps 19 - Title - April 26, 2026" under each title, read as the
 * markup streams by (`streamListItems`: the list is most of the page), and the markup without it.
 */
function readEpisodeList(markup: string, pageUrl: string): { items: EpisodeListItem[]; rest: string } | null {
  return streamListItems(markup, EPISODE_LIST_TAG, LIST_ITEM_ROLES, LIST_ITEM_ATTRIBUTES, (parts) => {
    const target = linkTarget(parts.link?.attribs['href'], pageUrl);
    const title = cleanText(parts.heading?.text) || cleanText(parts.link?.attribs['title']) || cleanText(parts.img?.attribs['title']);
    if (target === null || !title) return undefined;
    const line = cleanText(parts.line?.text).split(' - ');
    return {
      episode: parseEpisodeNumber(line[0]) ?? parseEpisodeNumber(title),
      title,
      slug: target.slug,
      url: target.url,
      poster: imageUrl(parts.img, pageUrl),
      releaseDateText: line.length > 1 ? (line.at(-1) ?? null) : null,
    } satisfies EpisodeListItem;
  });
}

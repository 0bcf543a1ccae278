import type { CheerioAPI } from 'cheerio/slim';
import type { Element } from 'domhandler';
import type { SeasonCard } from '../../contract/browse.js';
import type { Term } from '../../contract/schemas.js';
import { cleanText, parseRating } from '../text.js';
import { imageUrl, linkTarget } from '../url.js';
import { allMatches, classNamesOf, elementText, firstMatches, hasAncestorWithin, hasClass, type Matcher } from '../walk.js';

// The season page's own card: `div.card > div.card-box > a[href][rel]` (thumb,
// `.card-title > h2`, `span.studio`) and `div.card-info` (`.alternative`, `.stats .left/.right`,
// `.status`, `.desc p`, `.card-info-bottom a[rel=tag]`).

const isTag = (el: Element) => el.name === 'a' && classNamesOf(el.attribs['rel']).includes('tag');

const SEASON_CARD_ROLES = {
  link: (el) => el.name === 'a' && el.attribs['href'] !== undefined && !isTag(el),
  titledLink: (el) => el.name === 'a' && el.attribs['title'] !== undefined && !isTag(el),
  img: (el) => el.name === 'img',
  h2: (el) => el.name === 'h2' || el.name === 'h3',
  studio: (_el, classes) => classes.includes('studio'),
  alternative: (_el, classes) => classes.includes('alternative') || classes.includes('alter'),
  statsLeft: (_el, classes) => classes.includes('left'),
  statsRight: (_el, classes) => classes.includes('right'),
  status: (_el, classes) => classes.includes('status'),
  desc: (_el, classes) => classes.includes('desc'),
} satisfies Record<string, Matcher>;

// "12 episodes", "12 eps", "? eps": the count, or null when the site does not know it yet.
const EPISODE_COUNT = /^(\d+|\?+)\s*(?:episodes?|eps?)\.?$/i;

/** A season card; null when it has no link or title. */
export function parseSeasonCard($: CheerioAPI, card: Element, pageUrl: string): SeasonCard | null {
  const parts = firstMatches(card, SEASON_CARD_ROLES);
  const link = linkTarget(parts.link?.attribs['href'], pageUrl);
  const title = elementText($, parts.h2) || cleanText(parts.titledLink?.attribs['title']) || cleanText(parts.img?.attribs['title']);
  if (link === null || !title) return null;
  const stats = statParts($, card, parts.statsLeft);
  const count = stats.map((part) => EPISODE_COUNT.exec(part)).find((match) => match !== null);
  return {
    title,
    slug: link.slug,
    url: link.url,
    poster: imageUrl(parts.img, pageUrl),
    alternativeTitle: elementText($, parts.alternative) || null,
    studio: elementText($, parts.studio) || null,
    episodes: count?.[1] !== undefined && /^\d+$/.test(count[1]) ? Number(count[1]) : null,
    type: stats.find((part) => !EPISODE_COUNT.test(part)) ?? null,
    rating: parseRating(elementText($, parts.statsRight)),
    status: elementText($, parts.status) || null,
    synopsis: elementText($, parts.desc) || null,
    genres: allMatches(card, isTag).flatMap((el) => genre($, el, pageUrl)),
  };
}

// The left stats are one span ("12 episodes · Donghua") on some cards and one span per fact on
// others; both give the same parts.
function statParts($: CheerioAPI, card: Element, left: Element | undefined): string[] {
  if (left === undefined || !hasAncestorWithin(left, card, (el) => hasClass(el, 'stats'))) return [];
  const spans = allMatches(left, (el) => el.name === 'span');
  const texts = spans.length > 0 ? spans.map((span) => elementText($, span)) : [elementText($, left)];
  return texts
    .flatMap((text) => text.split(/[·•|]/))
    .map(cleanText)
    .filter(Boolean);
}

function genre($: CheerioAPI, el: Element, pageUrl: string): Term[] {
  const target = linkTarget(el.attribs['href'], pageUrl);
  const name = elementText($, el);
  return target === null || !name ? [] : [{ name, slug: target.slug, url: target.url }];
}

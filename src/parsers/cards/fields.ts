import type { CheerioAPI } from 'cheerio/slim';
import { isText, type Element } from 'domhandler';
import { cleanText } from '../text.js';
import { imageUrl, linkTarget } from '../url.js';
import { elementText, firstMatches, type Matcher } from '../walk.js';

// Readers for the parts both card kinds share (`article.bs > div.bsx > a.tip`).

const CARD_ROLES = {
  tipLink: (el, classes) => el.name === 'a' && el.attribs['href'] !== undefined && classes.includes('tip'),
  anyLink: (el) => el.name === 'a' && el.attribs['href'] !== undefined,
  titledLink: (el) => el.name === 'a' && el.attribs['href'] !== undefined && el.attribs['title'] !== undefined,
  tt: (_el, classes) => classes.includes('tt'),
  h2: (el) => el.name === 'h2',
  img: (el) => el.name === 'img',
  typez: (_el, classes) => classes.includes('typez'),
  sb: (_el, classes) => classes.includes('sb'),
  epx: (_el, classes) => classes.includes('epx'),
  statusBadge: (el, classes) => el.name === 'div' && classes.includes('status'),
} satisfies Record<string, Matcher>;

/** The first element of each role inside one card. */
export type CardParts = Partial<Record<keyof typeof CARD_ROLES, Element>>;

export function cardParts(card: Element): CardParts {
  return firstMatches(card, CARD_ROLES);
}

/** Text nodes directly inside the element, ignoring child elements (`.tt` holds the title plus an `h2`). */
export function ownText(el: Element | undefined): string {
  if (el === undefined) return '';
  let text = '';
  for (const child of el.children) if (isText(child)) text += child.data;
  return cleanText(text);
}

export function cardLink(parts: CardParts, pageUrl: string): { url: string; slug: string } | null {
  return linkTarget((parts.tipLink ?? parts.anyLink)?.attribs['href'], pageUrl);
}

/**
 * What every card that links to a series starts with: its parts, the title (`.tt` own text, then
 * `h2`, then the link title), link and poster; null when it has no link or title. A card that links
 * to an episode post (the later snapshot's Recommendation tabs) is titled by its headline, the
 * post's own title: `.tt` names the series, and title, slug and URL must describe one page.
 */
export function seriesCardBase(
  $: CheerioAPI,
  el: Element,
  pageUrl: string,
): { parts: CardParts; title: string; slug: string; url: string; poster: string | null } | null {
  const parts = cardParts(el);
  const link = cardLink(parts, pageUrl);
  const headline = linksToEpisodePost($, parts) ? elementText($, parts.h2) : '';
  const title = headline || ownText(parts.tt) || elementText($, parts.h2) || linkTitle(parts);
  if (link === null || !title) return null;
  return { parts, title, slug: link.slug, url: link.url, poster: cardPoster(parts, pageUrl) };
}

/** Whether the card's corner (`.epx`) reads an episode ("Ep 05", "Movie") rather than a series status. */
function linksToEpisodePost($: CheerioAPI, parts: CardParts): boolean {
  return /^(?:ep|eps|episode)\.?\s*\d|^movie$/i.test(elementText($, parts.epx));
}

/** The title attribute of the card link (`a.tip[title]`), the last fallback for titles. */
export function linkTitle(parts: CardParts): string {
  return cleanText(parts.titledLink?.attribs['title']);
}

export function cardPoster(parts: CardParts, pageUrl: string): string | null {
  return imageUrl(parts.img, pageUrl);
}

// The type badge repeats its value as a class (`typez Donghua`); some cards leave the text
// empty, and "Live Action" then arrives only as the classes `typez Live Action`.
export function typeBadge($: CheerioAPI, parts: CardParts): string | null {
  if (parts.typez === undefined) return null;
  const text = elementText($, parts.typez);
  if (text) return text;
  const classes = (parts.typez.attribs['class'] ?? '').split(/\s+/).filter((c) => c && c !== 'typez');
  return classes.length > 0 ? classes.join(' ') : null;
}

export function subBadge($: CheerioAPI, parts: CardParts): string | null {
  return elementText($, parts.sb) || null;
}

import type { CheerioAPI } from 'cheerio/slim';
import type { AnyNode, Element } from 'domhandler';
import { cleanText } from '../text.js';
import { absoluteUrl, imageSrc, slugFromUrl } from '../url.js';

// Readers for the parts both card kinds share (`article.bs > div.bsx > a.tip`).

/** The first element of each role inside one card. */
export interface CardParts {
  tipLink?: Element;
  anyLink?: Element;
  titledLink?: Element;
  tt?: Element;
  h2?: Element;
  img?: Element;
  typez?: Element;
  sb?: Element;
  epx?: Element;
  statusBadge?: Element;
}

/**
 * Finds every part of a card in one walk of its subtree. A selector query per field would compile
 * and run css-select eight times per card, which costs more than parsing the whole page.
 */
export function cardParts(card: Element): CardParts {
  const parts: CardParts = {};
  const stack: AnyNode[] = [...card.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (node.type !== 'tag') continue;
    const el = node as Element;
    const classes = (el.attribs['class'] ?? '').split(/\s+/);
    if (el.name === 'a' && el.attribs['href'] !== undefined) {
      if (classes.includes('tip')) parts.tipLink ??= el;
      parts.anyLink ??= el;
      if (el.attribs['title'] !== undefined) parts.titledLink ??= el;
    }
    if (el.name === 'h2') parts.h2 ??= el;
    if (el.name === 'img') parts.img ??= el;
    if (el.name === 'div' && classes.includes('status')) parts.statusBadge ??= el;
    if (classes.includes('tt')) parts.tt ??= el;
    if (classes.includes('typez')) parts.typez ??= el;
    if (classes.includes('sb')) parts.sb ??= el;
    if (classes.includes('epx')) parts.epx ??= el;
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i] as AnyNode);
  }
  return parts;
}

export function elementText($: CheerioAPI, el: Element | undefined): string {
  return el === undefined ? '' : cleanText($(el).text());
}

/** Text nodes directly inside the element, ignoring child elements (`.tt` holds the title plus an `h2`). */
export function ownText(el: Element | undefined): string {
  if (el === undefined) return '';
  let text = '';
  for (const child of el.children) if (child.type === 'text') text += child.data;
  return cleanText(text);
}

export function cardLink(parts: CardParts, pageUrl: string): { url: string; slug: string } | null {
  const url = absoluteUrl((parts.tipLink ?? parts.anyLink)?.attribs['href'], pageUrl);
  const slug = url === null ? null : slugFromUrl(url);
  return url !== null && slug !== null ? { url, slug } : null;
}

/** The title attribute of the card link (`a.tip[title]`), the last fallback for titles. */
export function linkTitle(parts: CardParts): string {
  return cleanText(parts.titledLink?.attribs['title']);
}

export function cardPoster($: CheerioAPI, parts: CardParts, pageUrl: string): string | null {
  return parts.img === undefined ? null : imageSrc($(parts.img), pageUrl);
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

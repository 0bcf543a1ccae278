import type { CheerioAPI } from 'cheerio/slim';
import type { Element } from 'domhandler';
import type { Scheduled } from '../../contract/browse.js';
import { parseEpisodeNumber } from '../text.js';
import { elementText } from '../walk.js';
import { seriesCardBase } from './fields.js';

/**
 * A schedule entry (`div.bs > div.bsx > a`, the theme's card skeleton); null when it has
 * no link or title. `.epx` carries the countdown (`data-rlsdt`, Unix seconds) and its text, `.sb`
 * the next episode's number ("??" when the site does not know it).
 */
export function parseScheduledCard($: CheerioAPI, el: Element, pageUrl: string): Scheduled | null {
  const base = seriesCardBase($, el, pageUrl);
  if (base === null) return null;
  const { parts, ...card } = base;
  return {
    ...card,
    nextEpisode: parseEpisodeNumber(elementText($, parts.sb)),
    releaseAt: releaseAt(parts.epx?.attribs['data-rlsdt']),
    timeText: elementText($, parts.epx) || null,
  };
}

// The theme prints PHP `time()` values (seconds); a value in milliseconds is taken as such.
function releaseAt(raw: string | undefined): string | null {
  const value = /^\d{9,13}$/.test(raw?.trim() ?? '') ? Number(raw) : NaN;
  if (!Number.isFinite(value)) return null;
  return new Date(value >= 1e12 ? value : value * 1000).toISOString();
}

import type { CheerioAPI } from 'cheerio/slim';
import type { Element } from 'domhandler';
import type { SeriesCard } from '../../contract/schemas.js';
import { seriesCardBase, subBadge, typeBadge, type CardParts } from './fields.js';
import { elementText } from '../walk.js';

const STATUS_WORDS: Record<string, string> = {
  ongoing: 'Ongoing',
  completed: 'Completed',
  upcoming: 'Upcoming',
  hiatus: 'Hiatus',
};

/** A series card (`article.bs` in search, lists, genre pages, recommendations); null when it has no link or title. */
export function parseSeriesCard($: CheerioAPI, el: Element, pageUrl: string): SeriesCard | null {
  const base = seriesCardBase($, el, pageUrl);
  if (base === null) return null;
  const { parts, ...card } = base;
  return { ...card, type: typeBadge($, parts), status: cardStatus($, parts), sub: subBadge($, parts) };
}

// Completed series carry a `div.status` badge; otherwise the `.epx` corner shows the status
// word on series cards, but an episode label ("Ep 12") on cards that link to an episode.
function cardStatus($: CheerioAPI, parts: CardParts): string | null {
  const badge = elementText($, parts.statusBadge);
  if (badge) return STATUS_WORDS[badge.toLowerCase()] ?? badge;
  return STATUS_WORDS[elementText($, parts.epx).toLowerCase()] ?? null;
}

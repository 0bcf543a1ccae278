import type { CheerioAPI } from 'cheerio/slim';
import type { Element } from 'domhandler';
import type { EpisodeCard } from '../../contract/schemas.js';
import { parseEpisodeNumber } from '../text.js';
import { cardLink, cardParts, cardPoster, linkTitle, ownText, subBadge, typeBadge } from './fields.js';
import { elementText } from '../walk.js';

/** An episode card (home Popular Today / Latest Release); null when it has no link or title. */
export function parseEpisodeCard($: CheerioAPI, el: Element, pageUrl: string): EpisodeCard | null {
  const parts = cardParts(el);
  const link = cardLink(parts, pageUrl);
  const episodeTitle = elementText($, parts.h2) || linkTitle(parts);
  const seriesTitle = ownText(parts.tt) || seriesFromEpisodeTitle(episodeTitle);
  if (link === null || !episodeTitle || !seriesTitle) return null;
  return {
    seriesTitle,
    episodeTitle,
    episode: episodeNumber(elementText($, parts.epx), episodeTitle),
    slug: link.slug,
    url: link.url,
    poster: cardPoster(parts, pageUrl),
    type: typeBadge($, parts),
    sub: subBadge($, parts),
  };
}

// The theme prints "Movie" instead of "Ep N" on movie cards; a movie has no episode number.
function episodeNumber(label: string, episodeTitle: string): number | null {
  if (/^movie$/i.test(label)) return null;
  return parseEpisodeNumber(label) ?? parseEpisodeNumber(episodeTitle);
}

// "Renegade Immortal Episode 124 Subtitle Indonesia" → "Renegade Immortal".
function seriesFromEpisodeTitle(episodeTitle: string): string {
  return episodeTitle
    .replace(/\s+(?:episode|eps?)\.?\s*\d[\s\S]*$/i, '')
    .replace(/\s+subtitle indonesia$/i, '')
    .trim();
}

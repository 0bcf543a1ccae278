import type { CheerioAPI } from 'cheerio/slim';
import type { Element } from 'domhandler';
import type { EpisodeEntry, EpisodeRef } from '../../contract/series.js';
import { parseEpisodeNumber, parseReleaseDate } from '../text.js';
import { linkTarget } from '../url.js';
import { allMatches, elementText, firstMatches, hasClass, type Matcher } from '../walk.js';

const ENTRY_ROLES = {
  link: (el) => el.name === 'a' && el.attribs['href'] !== undefined,
  num: (_el, classes) => classes.includes('epl-num'),
  title: (_el, classes) => classes.includes('epl-title'),
  sub: (_el, classes) => classes.includes('epl-sub'),
  date: (_el, classes) => classes.includes('epl-date'),
} satisfies Record<string, Matcher>;

/** The series page's episode list (`div.eplister > ul > li`), newest first as the site lists it. */
export function parseEpisodeLister($: CheerioAPI, lister: Element, pageUrl: string): EpisodeEntry[] {
  const entries: EpisodeEntry[] = [];
  for (const item of allMatches(lister, (el) => el.name === 'li')) {
    const parts = firstMatches(item, ENTRY_ROLES);
    const target = linkTarget(parts.link?.attribs['href'], pageUrl);
    const title = elementText($, parts.title) || elementText($, parts.link);
    if (target === null || !title) continue;
    const releaseDateText = elementText($, parts.date) || null;
    entries.push({
      // `epl-num` is zero-padded ("01"); movies and specials may carry a word instead.
      episode: parseEpisodeNumber(elementText($, parts.num)) ?? parseEpisodeNumber(title),
      title,
      slug: target.slug,
      url: target.url,
      sub: elementText($, parts.sub) || null,
      releaseDate: parseReleaseDate(releaseDateText),
      releaseDateText,
    });
  }
  return entries;
}

/**
 * The "First Episode" / "New Episode" buttons (`div.lastend > div.inepcx`), told apart by the
 * `epcurfirst` / `epcurlast` class of their label, else by their order.
 */
export function parseFirstAndLatest($: CheerioAPI, lastend: Element, pageUrl: string): { first: EpisodeRef | null; latest: EpisodeRef | null } {
  const buttons = allMatches(lastend, (_el, classes) => classes.includes('inepcx')).map((button) => {
    const parts = firstMatches(button, {
      link: (el) => el.name === 'a' && el.attribs['href'] !== undefined,
      label: (_el, classes) => classes.includes('epcur'),
    });
    const target = linkTarget(parts.link?.attribs['href'], pageUrl);
    const ref = target === null ? null : { episode: parseEpisodeNumber(elementText($, parts.label)), slug: target.slug, url: target.url };
    return { ref, label: parts.label };
  });
  const marked = (name: string) => buttons.find(({ label }) => label !== undefined && hasClass(label, name));
  return {
    first: (marked('epcurfirst') ?? buttons[0])?.ref ?? null,
    latest: (marked('epcurlast') ?? buttons[1])?.ref ?? null,
  };
}

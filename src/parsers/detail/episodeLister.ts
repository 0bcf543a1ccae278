import type { CheerioAPI } from 'cheerio/slim';
import type { Element } from 'domhandler';
import type { EpisodeEntry, EpisodeRef } from '../../contract/series.js';
import { streamListItems, type StreamedMatcher } from '../streamedItems.js';
import { cleanText, parseEpisodeNumber, parseReleaseDate } from '../text.js';
import { linkTarget } from '../url.js';
import { allMatches, elementText, firstMatches, hasClass } from '../walk.js';

const ENTRY_ROLES = {
  link: (el) => el.name === 'a' && el.attribs['href'] !== undefined,
  num: (el) => el.classes.includes('epl-num'),
  title: (el) => el.classes.includes('epl-title'),
  sub: (el) => el.classes.includes('epl-sub'),
  date: (el) => el.classes.includes('epl-date'),
} satisfies Record<string, StreamedMatcher>;

// The one attribute the roles and the entry reader read.
const ENTRY_ATTRIBUTES: ReadonlySet<string> = new Set(['href']);

// The list's opening tag: any element whose class list holds `eplister`.
const LISTER_TAG = /<[a-z][\w-]*\s[^>]*\bclass\s*=\s*["']?(?:[^"'>]*\s)?eplister[\s"'>]/i;

/**
 * The series page's episode list (`div.eplister > ul > li`), newest first as the site lists it,
 * read from the main column's markup as it streams by (`streamListItems`), and that markup without
 * the list; null when the page has no list.
 */
export function readEpisodeLister(markup: string, pageUrl: string): { entries: EpisodeEntry[]; rest: string } | null {
  const list = streamListItems(markup, LISTER_TAG, ENTRY_ROLES, ENTRY_ATTRIBUTES, (parts) => {
    const target = linkTarget(parts.link?.attribs['href'], pageUrl);
    const title = cleanText(parts.title?.text) || cleanText(parts.link?.text);
    if (target === null || !title) return undefined;
    const releaseDateText = cleanText(parts.date?.text) || null;
    return {
      // `epl-num` is zero-padded ("01"); movies and specials may carry a word instead.
      episode: parseEpisodeNumber(parts.num?.text) ?? parseEpisodeNumber(title),
      title,
      slug: target.slug,
      url: target.url,
      sub: cleanText(parts.sub?.text) || null,
      releaseDate: parseReleaseDate(releaseDateText),
      releaseDateText,
    } satisfies EpisodeEntry;
  });
  return list === null ? null : { entries: list.items, rest: list.rest };
}

/**
 * The "First Episode" / "New Episode" buttons (`div.lastend > div.inepcx`), told apart by the
 * `epcurfirst` / `epcurlast` class of their label, else by their order. A button that links to `#`
 * (the later snapshot's First Episode) is the list's entry of the number its label names.
 */
export function parseFirstAndLatest(
  $: CheerioAPI,
  lastend: Element,
  entries: readonly EpisodeEntry[],
  pageUrl: string,
): { first: EpisodeRef | null; latest: EpisodeRef | null } {
  const buttons = allMatches(lastend, (_el, classes) => classes.includes('inepcx')).map((button) => {
    const parts = firstMatches(button, {
      link: (el) => el.name === 'a' && el.attribs['href'] !== undefined,
      label: (_el, classes) => classes.includes('epcur'),
    });
    const episode = parseEpisodeNumber(elementText($, parts.label));
    const target =
      linkTarget(parts.link?.attribs['href'], pageUrl) ??
      (episode === null ? undefined : entries.find((entry) => entry.episode === episode)) ??
      null;
    const ref = target === null ? null : { episode, slug: target.slug, url: target.url };
    return { ref, label: parts.label };
  });
  const marked = (name: string) => buttons.find(({ label }) => label !== undefined && hasClass(label, name));
  return {
    first: (marked('epcurfirst') ?? buttons[0])?.ref ?? null,
    latest: (marked('epcurlast') ?? buttons[1])?.ref ?? null,
  };
}

import type { CheerioAPI } from 'cheerio/slim';
import type { Element } from 'domhandler';
import type { DownloadGroup, DownloadLink } from '../../contract/series.js';
import { absoluteUrl } from '../url.js';
import { allMatches, elementText, firstMatches } from '../walk.js';

/**
 * The download blocks below `root` (`div.soraddlx`: an `h3` title, then one `div.soraurlx` per
 * quality with a `strong` quality and one link per host): batches on the series page, the
 * episode's own files on the episode page.
 */
export function parseDownloads($: CheerioAPI, root: Element, pageUrl: string): DownloadGroup[] {
  const groups: DownloadGroup[] = [];
  for (const block of allMatches(root, (_el, classes) => classes.includes('soraddlx'))) {
    const title = elementText($, firstMatches(block, { heading: (el) => /^h\d$/.test(el.name) }).heading);
    const qualities = allMatches(block, (_el, classes) => classes.includes('soraurlx'))
      .map((row) => ({
        quality: elementText($, firstMatches(row, { label: (el) => el.name === 'strong' }).label),
        links: linksOf($, row, pageUrl),
      }))
      .filter((quality) => quality.quality !== '' && quality.links.length > 0);
    if (qualities.length > 0) groups.push({ title, qualities });
  }
  return groups;
}

function linksOf($: CheerioAPI, row: Element, pageUrl: string): DownloadLink[] {
  const links: DownloadLink[] = [];
  for (const link of allMatches(row, (el) => el.name === 'a')) {
    const url = absoluteUrl(link.attribs['href'], pageUrl);
    if (url === null) continue;
    // A link without a label still names its host through its URL.
    links.push({ host: elementText($, link) || new URL(url).hostname, url });
  }
  return links;
}

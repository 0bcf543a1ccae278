import type { CheerioAPI } from 'cheerio/slim';
import { isTag, type Element } from 'domhandler';
import { cleanText } from '../text.js';
import { allMatches } from '../walk.js';

/** One row of an info block: `<span><b>Status:</b> Ongoing</span>`. */
export interface InfoRow {
  /** Lower-cased, without the colon: "status", "released on", "tanggal rilis". */
  key: string;
  /** As the page writes it, without the colon: "Released on". */
  label: string;
  /** The text after the label, e.g. "Ongoing" or "Tencent Video, Bilibili". */
  value: string;
  links: Element[];
  /** The `datetime` of a `time` element in the row ("Released on", "Updated on"). */
  datetime: string | null;
  /** That `time` element's `itemprop` (`datePublished`, `dateModified`), which names the date whatever the label. */
  dateProp: string | null;
}

/**
 * The rows of the theme's info block (`div.spe > span`), shared by the series page and the
 * episode page's series box. Which labels appear varies by series and by install.
 */
export function infoRows($: CheerioAPI, block: Element): InfoRow[] {
  const rows: InfoRow[] = [];
  for (const span of block.children) {
    if (!isTag(span) || span.name !== 'span') continue;
    const bold = span.children.find((child): child is Element => isTag(child) && child.name === 'b');
    const label = cleanText(bold === undefined ? '' : $(bold).text()).replace(/\s*:$/, '');
    if (!label) continue;
    const value = cleanText(
      span.children
        .filter((child) => child !== bold)
        .map((child) => $(child).text())
        .join(''),
    ).replace(/^:\s*/, '');
    const time = allMatches(span, (el) => el.name === 'time')[0];
    rows.push({
      key: label.toLowerCase(),
      label,
      value,
      links: allMatches(span, (el) => el.name === 'a' && el.attribs['href'] !== undefined),
      datetime: cleanText(time?.attribs['datetime']) || null,
      dateProp: cleanText(time?.attribs['itemprop']) || null,
    });
  }
  return rows;
}

import Parser from 'rss-parser';
import { SaxesParser } from 'saxes';

// Reads a feed as a feed reader would, with parsers independent of the generator: for Atom and
// RSS, saxes checks that the document is well-formed XML 1.0 and rss-parser (xml2js) reads it;
// JSON.parse for JSON Feed. Every format comes back as the same plain shape, so tests can compare
// the three and assert values. xml2js alone is no judge of well-formedness: its sax parser accepts
// control characters and noncharacters (raw `\x01` or U+FFFE) that XML forbids and readers reject.

export interface ReadEntry {
  id: string;
  title: string;
  /** The site's page. */
  link: string;
  /** The entry's JSON in the API. */
  apiLink: string;
  /** ISO, as the feed dates the entry. */
  date: string;
  image: string | null;
  summary: string;
}

export interface ReadFeed {
  title: string;
  /** The site's page the feed follows. */
  siteLink: string;
  /** The feed's own URL as it states it. */
  selfLink: string;
  updated: string;
  entries: ReadEntry[];
}

type Attributes = { $: Record<string, string> };
type XmlFeed = {
  title?: string;
  link?: string;
  links?: Attributes[];
  atomLinks?: Attributes[];
  updated?: string;
  lastBuildDate?: string;
  items: XmlItem[];
};
type XmlItem = {
  title?: string;
  link?: string;
  links?: (Attributes | string)[];
  atomLinks?: Attributes[];
  id?: string;
  guid?: string;
  isoDate?: string;
  summary?: string;
  content?: string;
  thumbnail?: Attributes;
};

const parser = new Parser<Omit<XmlFeed, 'items'>, XmlItem>({
  customFields: {
    feed: [['link', 'links', { keepArray: true }], ['atom:link', 'atomLinks', { keepArray: true }], 'updated', 'lastBuildDate'] as never,
    item: [
      ['media:thumbnail', 'thumbnail'],
      ['link', 'links', { keepArray: true }],
      ['atom:link', 'atomLinks', { keepArray: true }],
      'id',
      'guid',
    ] as never,
  },
});

const hrefOf = (links: (Attributes | string)[] | undefined, rel: string) =>
  links?.find((link): link is Attributes => typeof link !== 'string' && link.$.rel === rel)?.$.href ?? '';

/** Throws the first well-formedness error of an XML document (a character XML forbids, a bad reference, a tag left open). */
export function assertWellFormedXml(text: string): void {
  const parser = new SaxesParser();
  let first: Error | undefined;
  parser.on('error', (error) => {
    first ??= error;
  });
  parser.write(text).close();
  if (first !== undefined) throw new Error(`not well-formed XML: ${first.message}`);
}

export async function readFeed(text: string, format: 'atom' | 'rss' | 'json'): Promise<ReadFeed> {
  if (format === 'json') return readJsonFeed(text);
  assertWellFormedXml(text);
  const feed = (await parser.parseString(text)) as unknown as XmlFeed;
  const atom = format === 'atom';
  return {
    title: feed.title ?? '',
    siteLink: atom ? hrefOf(feed.links, 'alternate') : (feed.link ?? ''),
    selfLink: hrefOf(atom ? feed.links : feed.atomLinks, 'self'),
    updated: new Date((atom ? feed.updated : feed.lastBuildDate) ?? '').toISOString(),
    entries: feed.items.map((item) => ({
      id: (atom ? item.id : item.guid) ?? '',
      title: item.title ?? '',
      link: item.link ?? '',
      apiLink: hrefOf(atom ? item.links : item.atomLinks, 'related'),
      date: item.isoDate ?? '',
      image: item.thumbnail?.$.url ?? null,
      summary: (atom ? item.summary : item.content) ?? '',
    })),
  };
}

interface JsonFeedDocument {
  version: string;
  title: string;
  home_page_url: string;
  feed_url: string;
  items: {
    id: string;
    url: string;
    external_url: string;
    title: string;
    summary: string;
    content_text: string;
    image?: string;
    date_published: string;
    date_modified: string;
  }[];
}

function readJsonFeed(text: string): ReadFeed {
  const feed = JSON.parse(text) as JsonFeedDocument;
  if (feed.version !== 'https://jsonfeed.org/version/1.1') throw new Error(`not JSON Feed 1.1: ${feed.version}`);
  const dates = feed.items.map((item) => item.date_published);
  return {
    title: feed.title,
    siteLink: feed.home_page_url,
    selfLink: feed.feed_url,
    // JSON Feed has no feed-level date: the newest entry's stands for it, as the contract defines `updated`.
    updated: dates.length === 0 ? new Date(0).toISOString() : dates.reduce((a, b) => (a > b ? a : b)),
    entries: feed.items.map((item) => {
      if (item.date_modified !== item.date_published) throw new Error(`entry ${item.id} has two dates`);
      if (item.content_text !== item.summary) throw new Error(`entry ${item.id}'s content is not its summary`);
      return {
        id: item.id,
        title: item.title,
        link: item.url,
        apiLink: item.external_url,
        date: item.date_published,
        image: item.image ?? null,
        summary: item.summary,
      };
    }),
  };
}

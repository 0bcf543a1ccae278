import { generateAtomFeed, generateJsonFeed, generateRssFeed } from 'feedsmith';
import type { FeedFormat, FeedModel } from './model.js';

/** Where the rendered feed lives: its own URL in this format, and the service's base URL for the JSON links. */
export interface FeedLocation {
  self: string;
  baseUrl: string;
}

/** Whoever the feed credits: the site it follows (Atom requires an author). */
const authorOf = (model: FeedModel) => ({ name: new URL(model.siteUrl).host, uri: new URL(model.siteUrl).origin });

const thumbnail = (image: string | null) => (image === null ? undefined : { thumbnails: [{ url: image }] });

/**
 * feedsmith pretty-prints, and puts a CDATA section (its form for text holding & or <) on lines of
 * its own inside the element, which would add the indentation to the text: the section is put back
 * against its tags, so every title reads exactly as the site writes it.
 */
function inlineCdata(xml: string): string {
  return xml.replace(/>\s+<!\[CDATA\[/g, '><![CDATA[').replace(/\]\]>\s+<\//g, ']]></');
}

function atom(model: FeedModel, { self, baseUrl }: FeedLocation): string {
  return inlineCdata(
    generateAtomFeed({
      id: self,
      title: { value: model.title, type: 'text' },
      subtitle: { value: model.description, type: 'text' },
      updated: model.updated,
      authors: [authorOf(model)],
      ...(model.image === null ? {} : { logo: model.image }),
      links: [
        { href: self, rel: 'self', type: 'application/atom+xml' },
        { href: model.siteUrl, rel: 'alternate', type: 'text/html' },
      ],
      entries: model.entries.map((entry) => ({
        id: entry.id,
        title: { value: entry.title, type: 'text' },
        summary: { value: entry.summary, type: 'text' },
        published: entry.date,
        updated: entry.date,
        links: [
          { href: entry.siteUrl, rel: 'alternate', type: 'text/html' },
          { href: `${baseUrl}${entry.apiPath}`, rel: 'related', type: 'application/json' },
        ],
        media: thumbnail(entry.image),
      })),
    }),
  );
}

function rss(model: FeedModel, { self, baseUrl }: FeedLocation): string {
  return inlineCdata(
    generateRssFeed({
      title: model.title,
      link: model.siteUrl,
      description: model.description,
      lastBuildDate: model.updated,
      // RSS counts in minutes; a reader asking sooner gets the same answer.
      ttl: Math.max(1, Math.ceil(model.ttlSeconds / 60)),
      ...(model.image === null ? {} : { image: { url: model.image, title: model.title, link: model.siteUrl } }),
      atom: { links: [{ href: self, rel: 'self', type: 'application/rss+xml' }] },
      items: model.entries.map((entry) => ({
        title: entry.title,
        link: entry.siteUrl,
        description: entry.summary,
        guid: { value: entry.id, isPermaLink: true },
        pubDate: entry.date,
        atom: { links: [{ href: `${baseUrl}${entry.apiPath}`, rel: 'related', type: 'application/json' }] },
        media: thumbnail(entry.image),
      })),
    }),
  );
}

function json(model: FeedModel, { self, baseUrl }: FeedLocation): string {
  const feed = generateJsonFeed({
    title: model.title,
    description: model.description,
    home_page_url: model.siteUrl,
    feed_url: self,
    ...(model.image === null ? {} : { icon: model.image }),
    authors: [{ name: authorOf(model).name, url: authorOf(model).uri }],
    items: model.entries.map((entry) => ({
      id: entry.id,
      url: entry.siteUrl,
      // JSON Feed's link to the entry's page elsewhere: its JSON in this API.
      external_url: `${baseUrl}${entry.apiPath}`,
      title: entry.title,
      summary: entry.summary,
      content_text: entry.summary,
      ...(entry.image === null ? {} : { image: entry.image }),
      date_published: entry.date,
      date_modified: entry.date,
    })),
  });
  return JSON.stringify(feed);
}

/** The feed in one format; every format reads the same model. */
export function renderFeed(model: FeedModel, format: FeedFormat, location: FeedLocation): string {
  if (format === 'atom') return atom(model, location);
  if (format === 'rss') return rss(model, location);
  return json(model, location);
}

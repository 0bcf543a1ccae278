import { describe, expect, it } from 'vitest';
import type { FeedModel } from '../../../src/feeds/model.js';
import { renderFeed } from '../../../src/feeds/render.js';
import { assertWellFormedXml, readFeed } from '../../helpers/feedReader.js';

const TITLES = [
  'Tom & Jerry’s <Battle> of the Nine Heavens Episode 12',
  '斗破苍穹 年番 第12集 & “Special” ]]> end',
  'Against the Gods <3 Episode 05 Subtitle Indonesia',
  'Renegade Immortal – 仙逆 Episode 1',
];

const model: FeedModel = {
  title: 'A & B <feed> ’ 仙逆',
  description: 'Newest & best',
  siteUrl: 'https://site.example/seri/a-b/',
  image: 'https://site.example/wp-content/uploads/a&b.jpg',
  updated: new Date('2026-04-24T17:00:00.000Z'),
  ttlSeconds: 600,
  entries: TITLES.map((title, index) => ({
    id: `https://site.example/a-b-episode-${index}/`,
    title,
    siteUrl: `https://site.example/a-b-episode-${index}/`,
    apiPath: `/catalog/episode/a-b-episode-${index}`,
    image: index === 1 ? null : `https://site.example/p${index}.jpg?w=1&h=2`,
    summary: `${title} · Episode ${index}`,
    date: new Date(Date.UTC(2026, 3, 24 - index, 17)),
  })),
};

describe('renderFeed', () => {
  for (const format of ['atom', 'rss', 'json'] as const) {
    it(`writes ${format} that an independent parser reads back unchanged`, async () => {
      const location = { self: `https://api.example/feeds/series/a-b.${format}`, baseUrl: 'https://api.example' };
      const feed = await readFeed(renderFeed(model, format, location), format);
      expect(feed.title).toBe(model.title);
      expect(feed.selfLink).toBe(location.self);
      expect(feed.siteLink).toBe(model.siteUrl);
      expect(feed.updated).toBe('2026-04-24T17:00:00.000Z');
      expect(feed.entries).toEqual(
        model.entries.map((entry) => ({
          id: entry.id,
          title: entry.title,
          link: entry.siteUrl,
          apiLink: `https://api.example${entry.apiPath}`,
          date: entry.date.toISOString(),
          image: entry.image,
          summary: entry.summary,
        })),
      );
    });
  }

  it('states the RSS ttl in whole minutes, rounded up', () => {
    const rss = renderFeed({ ...model, ttlSeconds: 90 }, 'rss', {
      self: 'https://api.example/feeds/latest.rss',
      baseUrl: 'https://api.example',
    });
    expect(rss).toContain('<ttl>2</ttl>');
  });

  // The parsers drop such characters from the site's text; the reader must be able to tell when one gets through.
  it.each(['\u0001', '\u001b', '\u0000', '\ufffe', '\uffff'])('the test reader rejects a feed with %j in a title', async (character) => {
    const dirty = { ...model, entries: [{ ...model.entries[0]!, title: `Soul${character}Land` }] };
    for (const format of ['atom', 'rss'] as const) {
      const xml = renderFeed(dirty, format, { self: `https://api.example/feeds/latest.${format}`, baseUrl: 'https://api.example' });
      await expect(readFeed(xml, format)).rejects.toThrow(/not well-formed XML/);
    }
  });

  it('the test reader rejects references to characters XML forbids, and tags left open', () => {
    expect(() => assertWellFormedXml('<feed><title>a&#1;b</title></feed>')).toThrow(/not well-formed XML/);
    expect(() => assertWellFormedXml('<feed><title>a&#xFFFE;b</title></feed>')).toThrow(/not well-formed XML/);
    expect(() => assertWellFormedXml('<feed><title>ab</feed>')).toThrow(/not well-formed XML/);
    expect(() => assertWellFormedXml('<feed><title>a&#9;b &amp; 斗罗 😀</title></feed>')).not.toThrow();
  });
});

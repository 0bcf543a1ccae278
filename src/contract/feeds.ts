import { z } from 'zod';
import { absoluteUrl } from './schemas.js';

// The JSON Feed 1.1 documents of /feeds/*.json, as this service writes them (a subset of the spec).

const isoDateTime = z.string().describe('ISO 8601 date and time');

export const JsonFeedItem = z
  .object({
    id: absoluteUrl.describe("The episode's (or movie's) canonical upstream URL; stable for ever"),
    url: absoluteUrl.describe("The site's page"),
    external_url: absoluteUrl.describe('Its JSON in this API (/catalog/episode/{slug} or /catalog/series/{slug})'),
    title: z.string().describe('As the site writes it'),
    summary: z.string().describe('Series, episode number, sub and type'),
    content_text: z.string().describe('The summary again (JSON Feed asks for content)'),
    image: absoluteUrl.optional().describe('The poster'),
    date_published: isoDateTime.describe("The page's release date (midnight +07:00), or when this service first saw the entry"),
    date_modified: isoDateTime.describe('Equal to date_published: an entry never moves'),
  })
  .meta({ id: 'JsonFeedItem' });

export const JsonFeed = z
  .object({
    version: z.literal('https://jsonfeed.org/version/1.1'),
    title: z.string(),
    description: z.string(),
    home_page_url: absoluteUrl.describe("The site's page the feed follows"),
    feed_url: absoluteUrl.describe("This feed's own URL"),
    icon: absoluteUrl.optional().describe("The series' poster, on a series feed"),
    authors: z.array(z.object({ name: z.string(), url: absoluteUrl })),
    items: z.array(JsonFeedItem).describe('Newest first'),
  })
  .meta({ id: 'JsonFeed' });

export type JsonFeed = z.infer<typeof JsonFeed>;

import { z } from 'zod';
import { absoluteUrl, nullableText } from './schemas.js';
import { SeriesDetail } from './series.js';

// The whole catalog in one download (/export/catalog.json and .jsonl): the crawler's local copy of
// every series page, without the episode list and batches that make a page large.

const isoDateTime = z.string().describe('ISO 8601 date and time (UTC)');

export const CatalogEntry = SeriesDetail.omit({ episodes: true, batches: true })
  .extend({
    sub: nullableText.describe('Subtitle badge of the series list card, usually "Sub"'),
    listedEpisodes: z.number().int().min(0).describe('How many episodes the series page lists'),
    checkedAt: isoDateTime.describe('When this service last read the series page'),
    changedAt: isoDateTime.describe('When anything in this entry last changed (checkedAt excepted)'),
  })
  .meta({ id: 'CatalogEntry' });

export const RemovedSeries = z
  .object({
    slug: z.string(),
    title: z.string(),
    removedAt: isoDateTime.describe('When this service found the page gone and the series in no list'),
  })
  .meta({ id: 'RemovedSeries' });

export const CatalogExport = z
  .object({
    $schema: absoluteUrl.describe("This document's JSON Schema (/export/catalog.schema.json)"),
    source: absoluteUrl.describe('The upstream origin the catalog was read from'),
    generatedAt: isoDateTime.describe('When the catalog last changed'),
    complete: z.boolean().describe('True once every listed series has been read at least once'),
    count: z.number().int().min(0).describe('How many entries `series` holds'),
    series: z.array(CatalogEntry).describe('Every series, ordered by slug'),
    removed: z.array(RemovedSeries).describe('Series the site no longer has, ordered by slug'),
  })
  .meta({ id: 'CatalogExport' });

export type CatalogEntry = z.infer<typeof CatalogEntry>;
export type RemovedSeries = z.infer<typeof RemovedSeries>;
export type CatalogExport = z.infer<typeof CatalogExport>;

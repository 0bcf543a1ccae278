import { z } from 'zod';
import type { CatalogEntry, RemovedSeries } from '../contract/catalogExport.js';

// Where the local catalog lives: every entry, the series gone, and how far the crawl has come.
// Implementations sit in the stores folder (a DATA_DIR file, or Redis with REDIS_URL); the heap
// holds only the crawler's index of it.

/** A series as its list card showed it: the card's `sub` (which the series page lacks), and a hash of the whole card. */
const ListedCard = z.object({ sub: z.string().nullable(), card: z.string() });
type ListedCard = z.infer<typeof ListedCard>;

/** The crawl's place, saved after each list page and pass, so that a restart goes on from there. */
export const CrawlProgress = z.object({
  /** The pass under way, or null between passes. */
  pass: z
    .object({
      kind: z.enum(['full', 'update']),
      /** Unix ms; a series whose checkedAt is not older has been read in this pass. */
      startedAt: z.number(),
      /** The next page of the update-ordered list to read; null once the list is read. */
      nextListPage: z.number().int().min(1).nullable(),
      /** Every series the list has shown in this pass. */
      listed: z.record(z.string(), ListedCard),
      /** Slugs to read in this pass, in the order the list showed them. */
      toRead: z.array(z.string()),
    })
    .nullable(),
  /** Every series the site lists, as its list cards last showed them. */
  listed: z.record(z.string(), ListedCard),
  /** The update-ordered list as last seen (slugs), which the update pass compares against. */
  updateOrder: z.array(z.string()),
  lastFullPassStartedAt: z.number().nullable(),
  lastFullPassEndedAt: z.number().nullable(),
  lastUpdatePassStartedAt: z.number().nullable(),
  lastUpdatePassEndedAt: z.number().nullable(),
});
export type CrawlProgress = z.infer<typeof CrawlProgress>;

export const NO_PROGRESS: CrawlProgress = {
  pass: null,
  listed: {},
  updateOrder: [],
  lastFullPassStartedAt: null,
  lastFullPassEndedAt: null,
  lastUpdatePassStartedAt: null,
  lastUpdatePassEndedAt: null,
};

/** What changed in the store after a revision: applied in order, the changes give every instance the same catalog. */
export interface CatalogChanges {
  /** Grows with every change; the same state has the same revision on every instance. */
  revision: number;
  /**
   * Entries stored or replaced since, as their JSON bytes (off the heap), by slug. Read as they are
   * stored: the index skips one it cannot read (a damaged row) and the crawler reads it again.
   */
  entries: Map<string, Buffer>;
  /** Series removed since, as their JSON text, by slug: their entries are gone. */
  removed: Map<string, string>;
}

export interface CatalogStore {
  /**
   * What changed after revision `since`, read at one moment; everything the store holds for a
   * `since` below 0. Only the changes, so that following a crawl costs what the crawl changed.
   */
  changesSince(since: number): Promise<CatalogChanges>;
  /** The current revision only: a cheap look for whether anything changed. */
  revision(): Promise<number>;
  progress(): Promise<CrawlProgress>;
  /** Stores (or replaces) the entry of `entry.slug`, and takes the slug off `removed`. */
  put(entry: CatalogEntry): Promise<void>;
  /** Drops the entry of `removed.slug` and lists it as removed. */
  remove(removed: RemovedSeries): Promise<void>;
  saveProgress(progress: CrawlProgress): Promise<void>;
  close(): Promise<void>;
}

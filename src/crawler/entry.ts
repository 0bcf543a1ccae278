import { createHash } from 'node:crypto';
import type { CatalogEntry } from '../contract/catalogExport.js';
import type { SeriesDetail } from '../contract/series.js';

/** What the crawler's index keeps of each entry: enough to decide what changed, and to list it. */
export interface EntryFacts {
  title: string;
  /** Of everything in the entry but checkedAt and changedAt. */
  hash: string;
  checkedAt: string;
  changedAt: string;
}

type Content = Omit<CatalogEntry, 'checkedAt' | 'changedAt'>;

function contentHash(content: Content): string {
  return createHash('sha1').update(JSON.stringify(content)).digest('base64url');
}

/**
 * The export entry of a series page read at `checkedAt`: the detail without its episode list and
 * batches, the `sub` of its list card and how many episodes the page lists. `changedAt` moves only
 * when the content differs from the entry held before.
 */
export function entryOf(
  detail: SeriesDetail,
  sub: string | null,
  checkedAt: string,
  previous: EntryFacts | undefined,
): { entry: CatalogEntry; facts: EntryFacts } {
  const { episodes, batches: _batches, ...rest } = detail;
  const content: Content = { ...rest, sub, listedEpisodes: episodes.length };
  const hash = contentHash(content);
  const changedAt = previous !== undefined && previous.hash === hash ? previous.changedAt : checkedAt;
  return { entry: { ...content, checkedAt, changedAt }, facts: { title: detail.title, hash, checkedAt, changedAt } };
}

/** The facts of an entry read back from the store. */
export function factsOf(entry: CatalogEntry): EntryFacts {
  const { checkedAt, changedAt, ...content } = entry;
  return { title: entry.title, hash: contentHash(content), checkedAt, changedAt };
}

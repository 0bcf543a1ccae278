import type { Logger } from '../config/logger.js';
import type { z } from 'zod';
import { CatalogEntry, RemovedSeries } from '../contract/catalogExport.js';
import { NO_PROGRESS, type CatalogChanges, type CatalogStore, type CrawlProgress } from './catalogStore.js';
import { factsOf, type EntryFacts } from './entry.js';

// The local catalog as the rest of the service sees it: the title search follows its changes, the
// export is built from its synced state, /status and /metrics read its state. The store holds the
// entries; each instance follows it by reading only what changed after the revision it has, and
// holds each entry as its JSON bytes (off the JavaScript heap, ready for the export) plus one small
// record per series (EntryFacts).

type CatalogChange = { kind: 'upsert'; entry: CatalogEntry } | { kind: 'remove'; slug: string };

export interface CatalogState {
  /** CRAWL_ENABLED. */
  enabled: boolean;
  /** Whether this instance is the one crawling (with REDIS_URL only one is). */
  crawlingHere: boolean;
  /** Every series the site's list shows has been read at least once. */
  complete: boolean;
  /** Series the site lists (as last counted), and how many of them have been read. */
  listed: number;
  read: number;
  /** Entries held. */
  held: number;
  removed: number;
  /** The pass under way: what kind, and when it started (ISO). */
  pass: { kind: 'full' | 'update'; startedAt: string } | null;
  lastFullPassEndedAt: string | null;
  /** When the next pass is due (ISO); null while one runs or the crawler is off. */
  nextPassAt: string | null;
}

/** What the title search (and anything else that follows the catalog) reads. */
export interface LocalCatalog {
  /**
   * Calls `listener` with every held entry once (soon after it is registered) and then with every
   * entry added, changed or removed, on every instance. Returns the unsubscribe function.
   */
  onChange(listener: (change: CatalogChange) => void): () => void;
  /** Every held entry, parsed (for a one-off rebuild; the heap holds them only while the caller does). */
  entries(): Promise<CatalogEntry[]>;
  state: () => CatalogState;
  /**
   * Whether the crawler is on and the catalog complete: what every title search asks, so it reads
   * two flags rather than state(), which counts the series read of every series listed.
   */
  readiness(): { enabled: boolean; complete: boolean };
}

/** One synced state of the store, as the export is built from it (the same revision gives the same view on every instance). */
export interface CatalogView {
  revision: number;
  /** Entries as their JSON bytes, ordered by slug. */
  entries: Buffer[];
  /** Ordered by slug. */
  removed: RemovedSeries[];
  complete: boolean;
  /** The newest checkedAt, changedAt or removedAt: the same on every instance at the same revision. */
  updatedAt: string;
}

/** The crawler's side of the local catalog. */
export interface CatalogIndex extends LocalCatalog {
  /** Settled once the store has been read for the first time (the crawler starts after it). */
  readonly ready: Promise<void>;
  facts(slug: string): EntryFacts | undefined;
  heldSlugs(): string[];
  /** Slugs whose stored entry could not be read (a damaged row), oldest first: the crawler reads them again before anything else. */
  unreadableSlugs(): string[];
  /** The crawler gives up reading `slug` again (the site has no such series now); the next full pass decides on it. */
  forgetUnreadable(slug: string): void;
  progress(): CrawlProgress;
  saveProgress(progress: CrawlProgress): Promise<void>;
  /** Saves the progress of a pass that ended, and syncs before the state says so. */
  finishPass(progress: CrawlProgress): Promise<void>;
  /** Moves the progress on without saving it (a step whose place the entries keep). */
  keepProgress(progress: CrawlProgress): void;
  put(entry: CatalogEntry, facts: EntryFacts): Promise<void>;
  remove(removed: RemovedSeries): Promise<void>;
  /** Reads the store now and tells the listeners what changed. */
  sync(): Promise<void>;
  /** The synced state as the export is built from it; undefined before the first sync. Built once per revision. */
  view(): CatalogView | undefined;
  /** Told of every synced change (the revision moved on), for the export. */
  onSynced(listener: () => void): void;
  /** The crawler tells what it is doing: whether it crawls here, and when its next pass is due. */
  noteCrawler(crawlingHere: boolean, nextPassAt: number | null): void;
  close(): Promise<void>;
}

/** How often the store's revision is looked at: changes made by the crawling instance reach the others within this. */
const SYNC_EVERY_MS = 2_000;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const bySlug = <T extends { slug: string }>(a: T, b: T) => byText(a.slug, b.slug);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function createCatalogIndex({
  store,
  enabled,
  logger,
  syncEveryMs = SYNC_EVERY_MS,
}: {
  store: CatalogStore;
  enabled: boolean;
  logger: Logger;
  /** How often the store's revision is looked at; tests that read another instance's crawl shorten it. */
  syncEveryMs?: number;
}): CatalogIndex {
  const facts = new Map<string, EntryFacts>();
  // Every held entry as its JSON bytes, by slug, and the newest of its checkedAt and changedAt, as synced.
  const held = new Map<string, Buffer>();
  const stamps = new Map<string, string>();
  // Per slug, the content hash the listeners were told.
  const told = new Map<string, string>();
  const removed = new Map<string, RemovedSeries>();
  const listeners = new Set<(change: CatalogChange) => void>();
  const syncListeners: (() => void)[] = [];
  let progress: CrawlProgress = NO_PROGRESS;
  let syncedRevision = -1;
  let synced = false;
  let complete = false;
  let crawler = { crawlingHere: false, nextPassAt: null as number | null };
  let syncing: Promise<void> | undefined;
  let syncAgain = false;
  let builtView: CatalogView | undefined;

  function emit(change: CatalogChange, to: Iterable<(change: CatalogChange) => void> = listeners): void {
    for (const listener of to) {
      try {
        listener(change);
      } catch (error) {
        logger.error({ err: error }, 'a catalog listener failed');
      }
    }
  }

  const parsed = (bytes: Buffer) => CatalogEntry.parse(JSON.parse(bytes.toString('utf8')));
  // Slugs whose stored row could not be read, until the crawler has read them again.
  const unreadable = new Set<string>();

  function forget(slug: string): void {
    facts.delete(slug);
    held.delete(slug);
    stamps.delete(slug);
    if (told.delete(slug)) emit({ kind: 'remove', slug });
  }

  /** A stored row as its schema reads it; undefined (and logged once per slug) when it cannot be read. */
  function readRow<T>(schema: z.ZodType<T>, slug: string, text: string): T | undefined {
    let row: z.ZodSafeParseResult<T> | undefined;
    try {
      row = schema.safeParse(JSON.parse(text));
    } catch {
      row = undefined;
    }
    if (row?.success) return row.data;
    if (!unreadable.has(slug)) logger.warn({ slug }, 'unreadable catalog entry skipped; the crawler reads it again');
    unreadable.add(slug);
    return undefined;
  }

  function apply(changes: CatalogChanges, storedProgress: CrawlProgress | undefined): void {
    // The crawling instance is ahead of what it saved (a step's place is not always saved).
    if (storedProgress !== undefined) progress = storedProgress;
    for (const [slug, bytes] of changes.entries) {
      const entry = readRow(CatalogEntry, slug, bytes.toString('utf8'));
      if (entry === undefined) {
        forget(slug);
        continue;
      }
      unreadable.delete(slug);
      const entryFacts = factsOf(entry);
      facts.set(slug, entryFacts);
      held.set(slug, bytes);
      stamps.set(slug, entry.checkedAt > entry.changedAt ? entry.checkedAt : entry.changedAt);
      removed.delete(slug);
      if (told.get(slug) !== entryFacts.hash) {
        told.set(slug, entryFacts.hash);
        emit({ kind: 'upsert', entry });
      }
    }
    for (const [slug, text] of changes.removed) {
      forget(slug);
      const gone = readRow(RemovedSeries, slug, text);
      if (gone === undefined) removed.delete(slug);
      else removed.set(slug, gone);
    }
    const listed = Object.keys(progress.listed);
    const wasComplete = complete;
    complete = listed.length > 0 && listed.every((slug) => held.has(slug));
    const changed = !synced || changes.revision !== syncedRevision || complete !== wasComplete;
    syncedRevision = changes.revision;
    synced = true;
    if (!changed) return;
    builtView = undefined;
    for (const listener of syncListeners) listener();
  }

  function view(): CatalogView | undefined {
    if (!synced) return undefined;
    if (builtView !== undefined) return builtView;
    const slugs = [...held.keys()].sort(byText);
    let updatedAt = '';
    for (const stamp of stamps.values()) if (stamp > updatedAt) updatedAt = stamp;
    for (const { removedAt } of removed.values()) if (removedAt > updatedAt) updatedAt = removedAt;
    builtView = {
      revision: syncedRevision,
      entries: slugs.map((slug) => held.get(slug)!),
      removed: [...removed.values()].sort(bySlug),
      complete,
      updatedAt,
    };
    return builtView;
  }

  async function syncOnce(): Promise<void> {
    const storedProgress = crawler.crawlingHere ? undefined : await store.progress();
    apply(await store.changesSince(syncedRevision), storedProgress);
  }

  /** One sync at a time; a sync asked for while one runs runs once more after it. */
  function sync(): Promise<void> {
    if (syncing !== undefined) {
      syncAgain = true;
      return syncing;
    }
    syncing = (async () => {
      try {
        do {
          syncAgain = false;
          await syncOnce();
        } while (syncAgain);
      } finally {
        syncing = undefined;
      }
    })();
    return syncing;
  }

  // Turned off, the catalog is not read at all: nothing is served from it.
  const timer = setInterval(() => {
    if (!enabled) return;
    void store
      .revision()
      .then((revision) => (revision !== syncedRevision ? sync() : undefined))
      .catch((error: unknown) => logger.warn({ err: error }, 'catalog sync failed; the last synced catalog stays'));
  }, syncEveryMs);
  timer.unref();

  function state(): CatalogState {
    const listed = Object.keys(progress.listed);
    const pass = progress.pass;
    // During a full pass, the bar counts the series read in this pass; otherwise those ever read.
    const passStarted = pass?.kind === 'full' ? iso(pass.startedAt)! : '';
    const read = listed.filter((slug) => {
      const entry = facts.get(slug);
      return entry !== undefined && entry.checkedAt >= passStarted;
    }).length;
    return {
      enabled,
      crawlingHere: crawler.crawlingHere,
      complete,
      listed: Math.max(listed.length, pass === null ? 0 : Object.keys(pass.listed).length),
      read,
      held: facts.size,
      removed: removed.size,
      pass: pass === null ? null : { kind: pass.kind, startedAt: iso(pass.startedAt)! },
      lastFullPassEndedAt: iso(progress.lastFullPassEndedAt),
      nextPassAt: enabled ? iso(crawler.nextPassAt) : null,
    };
  }

  async function entries(): Promise<CatalogEntry[]> {
    return [...held.values()].map(parsed);
  }

  // The first sync at once, so that a restarted instance serves its export without waiting.
  const ready = enabled
    ? sync().catch((error: unknown) => logger.warn({ err: error }, 'first catalog sync failed; retried in the background'))
    : Promise.resolve();

  return {
    ready,
    onChange(listener) {
      listeners.add(listener);
      // A listener that comes after the first sync hears of every held entry too.
      if (synced)
        void entries().then(
          (all) => {
            for (const entry of all) if (listeners.has(listener)) emit({ kind: 'upsert', entry }, [listener]);
          },
          (error: unknown) => logger.warn({ err: error }, 'catalog replay failed'),
        );
      return () => listeners.delete(listener);
    },
    entries,
    state,
    readiness: () => ({ enabled, complete }),
    facts: (slug) => facts.get(slug),
    heldSlugs: () => [...facts.keys()],
    unreadableSlugs: () => [...unreadable],
    forgetUnreadable: (slug) => void unreadable.delete(slug),
    progress: () => progress,
    async saveProgress(next) {
      progress = next;
      await store.saveProgress(next);
    },
    async finishPass(next) {
      await store.saveProgress(next);
      await sync();
      progress = next;
    },
    keepProgress(next) {
      progress = next;
    },
    // The crawler decides on facts at once; the listeners, the removed list and the export follow the store at the next sync.
    async put(entry, entryFacts) {
      await store.put(entry);
      facts.set(entry.slug, entryFacts);
      unreadable.delete(entry.slug);
    },
    async remove(entry) {
      await store.remove(entry);
      facts.delete(entry.slug);
    },
    sync,
    view,
    onSynced: (listener) => syncListeners.push(listener),
    noteCrawler(crawlingHere, nextPassAt) {
      crawler = { crawlingHere, nextPassAt };
    },
    async close() {
      clearInterval(timer);
      await syncing?.catch(() => undefined);
    },
  };
}

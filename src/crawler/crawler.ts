import { createHash } from 'node:crypto';
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { CatalogService } from '../catalog/service.js';
import type { Logger } from '../config/logger.js';
import type { SeriesCard, StaleReason } from '../contract/schemas.js';
import type { SeriesDetail } from '../contract/series.js';
import { endpoints, type AnyEndpoint } from '../catalog/endpoints/index.js';
import { ServiceBusyError, UpstreamBlockedError, UpstreamNotFoundError, UpstreamUnavailableError } from '../upstream/errors.js';
import type { CrawlProgress } from './catalogStore.js';
import type { CrawlLock } from './crawlLock.js';
import { entryOf, type EntryFacts } from './entry.js';
import type { CatalogIndex } from './localCatalog.js';
import { loopYield, usersBusy, type UserRequests } from './loopYield.js';
import { walkUpdatePage } from './updateWalk.js';

// The background crawler: one step (at most one upstream request) at a time, paced, through the
// catalog service, so that every page it reads is the cached answer of the endpoint a user would
// ask and is parsed by the same parser. Its place is saved after each list page and pass, and a
// series read in the running pass is not read again after a restart.

export interface CrawlPasses {
  /** How often the site's update list is read for new and changed series. */
  updateEveryMs: number;
  /** How often every series is read again. */
  fullPassEveryMs: number;
  /** The least wait after a failed step (the interval when longer), doubled with each failure in a row. */
  firstBackoffMs: number;
  /** The longest the crawler waits between looks at its schedule and the lock while no pass is due (a clock moved by a test is seen then). */
  idleLookMs: number;
}

export const CRAWL_PASSES: CrawlPasses = {
  updateEveryMs: 10 * 60_000,
  fullPassEveryMs: 24 * 60 * 60_000,
  firstBackoffMs: 1_000,
  idleLookMs: 1_000,
};

export interface CrawlerOptions {
  catalog: CatalogService;
  index: CatalogIndex;
  lock: CrawlLock;
  /** How often an instance that does not crawl tries the lock, and the longest slice of a backoff between renewals of a held one. */
  lockRetryMs: number;
  /** CRAWL_INTERVAL_S, in ms: the least time between the end of one upstream request and the next. */
  intervalMs: number;
  updateEveryMs: CrawlPasses['updateEveryMs'];
  fullPassEveryMs: CrawlPasses['fullPassEveryMs'];
  firstBackoffMs: CrawlPasses['firstBackoffMs'];
  idleLookMs: CrawlPasses['idleLookMs'];
  /** The service's clock: pass times, checkedAt, and the cache the pages go to. */
  now: () => number;
  logger: Logger;
  /** Every request users send the service, counted as it comes in: the crawler yields to them while they keep it busy. */
  userRequests: UserRequests;
  /** Told of every step's outcome, for the metrics. */
  onStep?: (kind: 'list' | 'series', result: StepResult) => void;
}

export type StepResult = 'ok' | 'gone' | 'skipped' | 'failed';

export interface Crawler {
  stop(): Promise<void>;
}

/** Waits after failures grow from the interval (at least `firstBackoffMs`) up to this. */
const MAX_BACKOFF_MS = 10 * 60_000;

/**
 * A hash of what a list card says of its series: a card that says something else than last time
 * marks its series as changed. Not the poster: the theme picks the image size by the card's place
 * on the page, so it changes whenever the list moves.
 */
const cardHash = ({ title, url, type, status, sub }: SeriesCard) =>
  createHash('sha1')
    .update(JSON.stringify([title, url, type, status, sub]))
    .digest('base64url')
    .slice(0, 16);

class SkipSeries extends Error {}

/** The site failed and the catalog service answered with its last good copy: a failure to the crawler. */
class StoodIn extends Error {
  constructor(readonly reason: StaleReason) {
    super(`the upstream failed (${reason}); only a last good copy was there`);
  }
}

/** Failures of the kept copy's stand-in that say nothing of one page: the site walls us off, its breaker is open, or our own queue is full. */
const SITE_WIDE_REASONS: ReadonlySet<StaleReason> = new Set(['UPSTREAM_BLOCKED', 'UPSTREAM_UNAVAILABLE', 'SERVICE_BUSY']);

/**
 * Whether a failure stops the whole crawl for a while (a wall, an open breaker, our full queue),
 * rather than one page: the crawler then backs off and reads the same page next.
 */
function isSiteWide(error: unknown): boolean {
  if (error instanceof StoodIn) return SITE_WIDE_REASONS.has(error.reason);
  return error instanceof UpstreamBlockedError || error instanceof UpstreamUnavailableError || error instanceof ServiceBusyError;
}

const endpointOf = (path: string): AnyEndpoint => endpoints.find((endpoint) => endpoint.path === path)!;
/** The site's series list by the filter endpoint, newest update first: every series the site lists. */
const LIST_ENDPOINT = endpointOf('/catalog/series');
const SERIES_ENDPOINT = endpointOf('/catalog/series/{slug}');

/** Which pass is due at `now`, or null; and when the next one will be. */
function passDue(
  progress: CrawlProgress,
  now: number,
  updateEveryMs: number,
  fullPassEveryMs: number,
): { due: 'full' | 'update' | null; nextAt: number } {
  if (progress.lastFullPassStartedAt === null || progress.lastFullPassEndedAt === null) return { due: 'full', nextAt: now };
  const fullAt = progress.lastFullPassStartedAt + fullPassEveryMs;
  const updateAt = (progress.lastUpdatePassStartedAt ?? progress.lastFullPassStartedAt) + updateEveryMs;
  if (now >= fullAt) return { due: 'full', nextAt: now };
  if (now >= updateAt) return { due: 'update', nextAt: now };
  return { due: null, nextAt: Math.min(fullAt, updateAt) };
}

export function startCrawler(options: CrawlerOptions): Crawler {
  const { catalog, index, lock, lockRetryMs, intervalMs, now, logger } = options;
  const onStep = options.onStep ?? (() => undefined);
  const stopping = new AbortController();
  let lastRequestEnd = -Infinity;
  let failures = 0;
  // Series whose page failed, by slug: how many passes in a row, and when the next may try it.
  const failedSeries = new Map<string, { failures: number; retryAt: number }>();
  // Counts of the running pass, for its one log line.
  let passCounts = { requests: 0, read: 0, changed: 0, removed: 0, skipped: 0, failed: 0 };

  const sleep = (ms: number) => sleepFor(Math.max(0, ms), undefined, { signal: stopping.signal, ref: false }).catch(() => undefined);
  const yieldToUsers = loopYield({
    busySinceLastLook: usersBusy(options.userRequests),
    sleep,
    now: () => performance.now(),
    stopped: () => stopping.signal.aborted,
  });

  /**
   * Waits out the interval since the last request and, while users keep the service busy, a little
   * more; then runs one request. The interval counts from its end.
   */
  async function paced<T>(request: () => Promise<T>): Promise<T> {
    await sleep(lastRequestEnd + intervalMs - performance.now());
    await yieldToUsers();
    passCounts.requests++;
    try {
      return await request();
    } finally {
      lastRequestEnd = performance.now();
    }
  }

  /**
   * The answer of `endpoint` for `raw` (path and query parameters as a request gives them),
   * validated by the endpoint's own schema as a request is: the same input, so the same cache entry.
   */
  async function fetchData<T>(endpoint: AnyEndpoint, raw: Record<string, string>): Promise<{ data: T; hasNextPage: boolean }> {
    const input = endpoint.input.safeParse(raw);
    if (!input.success) throw new SkipSeries(`not a valid ${endpoint.path} request: ${JSON.stringify(raw)}`);
    const pass = index.progress().pass;
    // A path of the site not known yet is looked up in a step of its own, so that its request is paced too.
    const lookup = catalog.pathLookup(endpoint);
    if (lookup !== null) await paced(() => lookup('background'));
    const result = await paced(() => catalog.fetch(endpoint, input.data, pass?.startedAt, 'background'));
    // The last good copy standing in for a page the site failed to give: nothing was read.
    if (result.staleReason !== undefined) throw new StoodIn(result.staleReason);
    const { answer } = result;
    const body = JSON.parse(answer.body.toString('utf8')) as { data: T; pagination: { hasNextPage: boolean } | null };
    return { data: body.data, hasNextPage: body.pagination?.hasNextPage ?? false };
  }

  /**
   * A series page that failed is skipped for this pass. The next pass tries it again; after
   * another failure it waits an update period, then twice as long each time, up to a full pass.
   */
  function seriesFailed(slug: string): void {
    const failures = (failedSeries.get(slug)?.failures ?? 0) + 1;
    const waitMs = failures === 1 ? 0 : Math.min(options.fullPassEveryMs, options.updateEveryMs * 2 ** Math.min(failures - 2, 16));
    failedSeries.set(slug, { failures, retryAt: now() + waitMs });
  }

  /** The failed series due for another try, not in `toRead` already: an update pass reads them too. */
  function retriesDue(toRead: readonly string[]): string[] {
    const listed = new Set(toRead);
    const at = now();
    return [...failedSeries].filter(([slug, { retryAt }]) => retryAt <= at && !listed.has(slug)).map(([slug]) => slug);
  }

  async function save(progress: CrawlProgress): Promise<void> {
    await index.saveProgress(progress);
  }

  function startPass(kind: 'full' | 'update', progress: CrawlProgress): CrawlProgress {
    const startedAt = now();
    passCounts = { requests: 0, read: 0, changed: 0, removed: 0, skipped: 0, failed: 0 };
    return {
      ...progress,
      pass: { kind, startedAt, nextListPage: 1, listed: {}, toRead: [] },
      ...(kind === 'full' ? { lastFullPassStartedAt: startedAt } : {}),
      lastUpdatePassStartedAt: startedAt,
    };
  }

  /** One page of the update-ordered list. */
  async function readListPage(progress: CrawlProgress): Promise<CrawlProgress> {
    const pass = progress.pass!;
    const page = pass.nextListPage!;
    const { data, hasNextPage } = await fetchData<{ series: SeriesCard[] }>(LIST_ENDPOINT, { order: 'update', page: String(page) });
    onStep('list', 'ok');
    const listed = { ...pass.listed };
    const cards = data.series.filter((card) => !(card.slug in listed));
    for (const card of cards) listed[card.slug] = { sub: card.sub, card: cardHash(card) };
    if (pass.kind === 'full') {
      const toRead = [...pass.toRead, ...cards.map((card) => card.slug)];
      if (hasNextPage) return { ...progress, pass: { ...pass, nextListPage: page + 1, listed, toRead } };
      // The whole list is read: series held but no longer listed are read too, to find those that are gone.
      const unlisted = index.heldSlugs().filter((slug) => !(slug in listed));
      return {
        ...progress,
        listed,
        updateOrder: Object.keys(listed),
        pass: { ...pass, nextListPage: null, listed, toRead: [...toRead, ...unlisted] },
      };
    }
    const movedUp = new Set(pass.toRead);
    const walk = walkUpdatePage(
      cards.map((card) => ({
        slug: card.slug,
        known: index.facts(card.slug) !== undefined && progress.listed[card.slug]?.card === cardHash(card),
      })),
      progress.updateOrder,
      movedUp,
      !hasNextPage,
    );
    const changed = [...pass.toRead, ...walk.changed];
    if (!walk.stop && hasNextPage) return { ...progress, pass: { ...pass, nextListPage: page + 1, listed, toRead: changed } };
    const toRead = [...changed, ...retriesDue(changed)];
    const moved = new Set(toRead);
    return {
      ...progress,
      listed: { ...progress.listed, ...listed },
      updateOrder: [...toRead, ...progress.updateOrder.filter((slug) => !moved.has(slug))],
      pass: { ...pass, nextListPage: null, listed, toRead },
    };
  }

  /** Reads the series page of `slug` and stores its entry. */
  async function readEntry(slug: string, sub: string | null, previous: EntryFacts | undefined): Promise<void> {
    const { data } = await fetchData<SeriesDetail>(SERIES_ENDPOINT, { slug });
    const read = entryOf(data, sub, new Date(now()).toISOString(), previous);
    await index.put(read.entry, read.facts);
    failedSeries.delete(slug);
    passCounts.read++;
    if (previous?.hash !== read.facts.hash) passCounts.changed++;
    onStep('series', 'ok');
  }

  /** The series page of the first slug still to read. */
  async function readSeries(progress: CrawlProgress): Promise<CrawlProgress> {
    const pass = progress.pass!;
    const [slug, ...rest] = pass.toRead;
    const next = { ...progress, pass: { ...pass, toRead: rest } };
    const previous = index.facts(slug!);
    // Read in this pass already, before a restart.
    if (pass.kind === 'full' && previous !== undefined && Date.parse(previous.checkedAt) >= pass.startedAt) return next;
    const card = pass.listed[slug!] ?? progress.listed[slug!];
    const failed = failedSeries.get(slug!);
    if (failed !== undefined && now() < failed.retryAt) {
      onStep('series', 'skipped');
      passCounts.skipped++;
      return next;
    }
    try {
      await readEntry(slug!, card?.sub ?? null, previous);
    } catch (error) {
      if (isSiteWide(error)) throw error;
      if (error instanceof UpstreamNotFoundError) {
        failedSeries.delete(slug!);
        // Gone from its page and from the list: removed. A listed series whose page 404s is left as it is.
        if (previous !== undefined && !(slug! in pass.listed) && pass.nextListPage === null && pass.kind === 'full') {
          await index.remove({ slug: slug!, title: previous.title, removedAt: new Date(now()).toISOString() });
          const { [slug!]: _gone, ...listed } = next.listed;
          passCounts.removed++;
          onStep('series', 'gone');
          return { ...next, listed, updateOrder: next.updateOrder.filter((other) => other !== slug) };
        }
        onStep('series', 'skipped');
        passCounts.skipped++;
        return next;
      }
      if (error instanceof SkipSeries) {
        if (passCounts.skipped === 0) logger.warn({ err: error, slug }, 'series skipped in this crawl pass');
        onStep('series', 'skipped');
        passCounts.skipped++;
        return next;
      }
      // This one page failed (an error page, a changed layout, a timeout; its kept copy may have
      // stood in): skipped for this pass, with its own backoff, and the pass goes on. A site that
      // fails on every page opens the breaker (breaker.ts), and the crawler then backs off as a whole.
      // The first of a pass is logged; the rest are counted in the pass's line (a redesign would fail them all).
      if (passCounts.failed === 0) logger.warn({ err: error, slug }, 'series page failed; skipped in this crawl pass');
      seriesFailed(slug!);
      onStep('series', 'failed');
      passCounts.failed++;
      return next;
    }
    return next;
  }

  /**
   * Reads again a series whose stored entry could not be read (a damaged row), so that one bad row
   * costs one request, not the catalog's completeness until the next full pass.
   */
  async function rereadUnreadable(slug: string): Promise<void> {
    const progress = index.progress();
    const card = progress.pass?.listed[slug] ?? progress.listed[slug];
    try {
      await readEntry(slug, card?.sub ?? null, undefined);
    } catch (error) {
      if (isSiteWide(error)) throw error;
      // Not there, or not readable now: the next full pass decides, as for any other series.
      index.forgetUnreadable(slug);
      onStep('series', 'skipped');
    }
  }

  async function endPass(progress: CrawlProgress): Promise<CrawlProgress> {
    const pass = progress.pass!;
    const endedAt = now();
    const ended: CrawlProgress = {
      ...progress,
      pass: null,
      ...(pass.kind === 'full' ? { lastFullPassEndedAt: endedAt } : {}),
      lastUpdatePassEndedAt: endedAt,
    };
    await index.finishPass(ended);
    const state = index.state();
    logger.info(
      {
        pass: pass.kind,
        durationMs: endedAt - pass.startedAt,
        ...passCounts,
        listed: state.listed,
        held: state.held,
        complete: state.complete,
      },
      `crawl ${pass.kind} pass done`,
    );
    return ended;
  }

  /** One step of the crawl: at most one upstream request. */
  async function step(): Promise<void> {
    const [unreadable] = index.unreadableSlugs();
    if (unreadable !== undefined) return rereadUnreadable(unreadable);
    let progress = index.progress();
    if (progress.pass === null) {
      const { due, nextAt } = passDue(progress, now(), options.updateEveryMs, options.fullPassEveryMs);
      index.noteCrawler(true, nextAt);
      if (due === null) return sleep(Math.min(options.idleLookMs, nextAt - now()));
      progress = startPass(due, progress);
      await save(progress);
    }
    index.noteCrawler(true, null);
    const pass = progress.pass!;
    if (pass.nextListPage !== null) {
      await save(await readListPage(progress));
      return;
    }
    if (pass.toRead.length > 0) {
      const next = await readSeries(progress);
      // The place within the pages is kept by each entry's checkedAt; saved here only when the list changed.
      if (next.listed !== progress.listed) await save(next);
      else index.keepProgress(next);
      return;
    }
    await endPass(progress);
  }

  /**
   * A wait after a failure: the Retry-After of a wall, an open breaker or our own full queue
   * (users' fetches first), or a doubling of the interval, whichever is longer.
   */
  function backoffMs(error: unknown): number {
    const retryAfterS =
      error instanceof UpstreamBlockedError || error instanceof UpstreamUnavailableError || error instanceof ServiceBusyError
        ? error.retryAfterSeconds
        : 0;
    const doubling = Math.max(intervalMs, options.firstBackoffMs) * 2 ** Math.min(failures - 1, 16);
    return Math.min(MAX_BACKOFF_MS, Math.max(retryAfterS * 1000, doubling));
  }

  async function run(): Promise<void> {
    await index.ready;
    while (!stopping.signal.aborted) {
      let mine: boolean;
      try {
        mine = await lock.hold();
      } catch (error) {
        logger.warn({ err: error }, 'crawl lock unavailable');
        mine = false;
      }
      if (!mine) {
        index.noteCrawler(false, null);
        await sleep(lockRetryMs);
        continue;
      }
      try {
        await step();
        failures = 0;
      } catch (error) {
        if (stopping.signal.aborted) break;
        failures++;
        passCounts.failed++;
        const waitMs = backoffMs(error);
        onStep(index.progress().pass?.nextListPage === null ? 'series' : 'list', 'failed');
        if (failures === 1 || failures % 10 === 0) logger.warn({ err: error, failures, waitMs }, 'crawl step failed; backing off');
        // Waits in slices, so that a held lock is renewed meanwhile.
        for (let waited = 0; waited < waitMs && !stopping.signal.aborted; waited += lockRetryMs) {
          await sleep(Math.min(lockRetryMs, waitMs - waited));
          await lock.hold().catch(() => false);
        }
      }
    }
  }

  const running = run().catch((error: unknown) => logger.error({ err: error }, 'the crawler stopped on an unexpected error'));
  return {
    async stop() {
      stopping.abort();
      await running;
      await lock.release().catch(() => undefined);
    },
  };
}

import type { OriginBreakers } from './breaker.js';
import type { ConnectionTurns } from './connectionTurns.js';
import { countsAgainstOrigin, UpstreamMovedError, UpstreamSuspectPageError, UpstreamUnavailableError } from './errors.js';
import type { OriginPool } from './origins.js';
import type { PageFetch, UpstreamPage } from './pageFetch.js';
import { pageText } from './siteLinks.js';

// Which origin a page is fetched from: when the one in use moved, serves something that is not
// the catalog or keeps failing, the next origin whose home page looks like the theme is adopted,
// and set-aside origins ahead of it in the order are retried in the background.

export interface OriginFailover {
  /** Fetches `path` from the current origin, and after a failure that says it is in trouble, from the origin adopted instead. */
  fetch(path: string, state: PageFetch): Promise<UpstreamPage>;
  /** Set-aside origins ahead of the current one are retried in the background, once per recheck interval. */
  recheckEarlierOrigins(): void;
}

export interface OriginFailoverOptions {
  pool: OriginPool;
  breakers: Pick<OriginBreakers, 'isOpen'>;
  /** The background recheck waits for a turn like any background fetch. */
  turns: ConnectionTurns;
  /** The background recheck's deadline. */
  timeoutMs: number;
  /** One page from one origin, through its breaker, the retries and the challenge ladder. */
  fetchFromOrigin: (origin: string, path: string, state: PageFetch) => Promise<UpstreamPage>;
}

interface Trigger {
  reason: string;
  /** Where the origin redirected to, tried first. */
  preferred?: string;
}

// The home page of the AnimeStream theme: a WordPress page with the theme's card lists.
function looksLikeCatalogHome(html: string): boolean {
  return html.includes('/wp-content/') && /class="[^"]*\blistupd\b/.test(html) && /class="[^"]*\bbsx\b/.test(html);
}

export function createOriginFailover(options: OriginFailoverOptions): OriginFailover {
  const { pool, breakers, turns, fetchFromOrigin } = options;
  const failovers = new Map<string, Promise<string | null>>();

  /** Errors after which another origin is tried: the site moved, is not the catalog, or keeps failing. */
  function failoverTrigger(origin: string, error: unknown): Trigger | null {
    if (error instanceof UpstreamMovedError) return { reason: `redirects to ${error.location}`, preferred: new URL(error.location).origin };
    if (error instanceof UpstreamSuspectPageError) return { reason: 'answers pages that are not the catalog' };
    if (error instanceof UpstreamUnavailableError || (countsAgainstOrigin(error) && breakers.isOpen(origin)))
      return { reason: 'keeps failing (breaker open)' };
    return null;
  }

  async function fetch(path: string, state: PageFetch): Promise<UpstreamPage> {
    const origin = pool.current();
    try {
      return await fetchFromOrigin(origin, path, state);
    } catch (error) {
      const trigger = failoverTrigger(origin, error);
      if (trigger === null || state.signal.aborted) throw error;
      const next = await failover(origin, trigger, state);
      if (next === null) throw error;
      return fetchFromOrigin(next, path, state);
    }
  }

  /** Sets `from` aside and adopts the first candidate that is good, setting the others aside with why; one failover per origin at a time. */
  function failover(from: string, trigger: Trigger, state: PageFetch): Promise<string | null> {
    const running = failovers.get(from);
    if (running) return running;
    const attempt = (async () => {
      if (pool.current() !== from) return pool.current();
      pool.setAside(from, trigger.reason);
      for (const candidate of pool.candidates(trigger.preferred)) {
        const refusal = await refusalOf(candidate, state);
        if (refusal === null) {
          await pool.adopt(candidate, `${from} ${trigger.reason}`, candidate === trigger.preferred ? from : undefined);
          return candidate;
        }
        pool.setAside(candidate, refusal);
      }
      return null;
    })().finally(() => failovers.delete(from));
    failovers.set(from, attempt);
    return attempt;
  }

  /**
   * Why a candidate origin is not taken, or null when it is good: its home page, fetched through
   * the whole ladder, must look like the theme. A failed fetch is named as it failed (a timeout is
   * no proof that the origin serves something else).
   */
  async function refusalOf(origin: string, state: PageFetch): Promise<string | null> {
    try {
      return looksLikeCatalogHome(pageText(await fetchFromOrigin(origin, '/', state)))
        ? null
        : 'its home page does not look like the catalog';
    } catch (error) {
      return `its home page could not be fetched: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  function recheckEarlierOrigins(): void {
    const due = pool.dueForRecheck();
    if (due.length === 0) return;
    void (async () => {
      // Background work: it waits for users' fetches, and when it gets no turn it waits for the next interval.
      const release = await turns.take('background').catch(() => null);
      if (release === null) return;
      const state: PageFetch = {
        priority: 'background',
        signal: AbortSignal.timeout(options.timeoutMs),
        deadlineAt: Date.now() + options.timeoutMs,
        track: () => undefined,
      };
      try {
        for (const origin of due) {
          if ((await refusalOf(origin, state)) === null) {
            await pool.adopt(origin, 'it answers like the catalog again');
            return;
          }
        }
      } finally {
        release();
      }
    })();
  }

  return { fetch, recheckEarlierOrigins };
}

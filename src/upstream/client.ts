import { ExponentialBackoff, TaskCancelledError, TimeoutStrategy, handleWhen, retry, timeout } from 'cockatiel';
import type { Config } from '../config/schema.js';
import type { Logger } from '../config/logger.js';
import { createMetrics, type Metrics } from '../metrics.js';
import type { SharedClearances } from './challenge/clearanceStore.js';
import { createOriginBreakers } from './breaker.js';
import { createChallengeGate, type ChallengeGate } from './challenge/gate.js';
import type { Clearance } from './challenge/clearance.js';
import { createSolver } from './challenge/pickSolver.js';
import type { ChallengeSolver } from './challenge/solver.js';
import { classifyAnswer, MAX_PAGE_BYTES, type UpstreamAnswer, type UpstreamFailure } from './classify.js';
import {
  UpstreamBadResponseError,
  UpstreamBlockedError,
  UpstreamError,
  UpstreamMovedError,
  UpstreamNotFoundError,
  UpstreamSuspectPageError,
  UpstreamTimeoutError,
  UpstreamUnavailableError,
  UpstreamUnreadablePageError,
} from './errors.js';
import { requestHeaders } from './headers.js';
import { createHostPauses } from './hostPause.js';
import { createHttpTransport } from './http.js';
import { CONNECTION_TURNS, createConnectionTurns, type ConnectionTurnsOptions, type FetchPriority } from './connectionTurns.js';
import { createUpstreamMonitor, type UpstreamStatus } from './monitor.js';
import type { OriginStore, SharedOrigin } from './originStore.js';
import { createOriginPool } from './origins.js';
import { linksOnServingOrigin } from './siteLinks.js';

export type { FetchPriority } from './connectionTurns.js';

export interface UpstreamPage {
  /** The URL that finally answered (after same-origin redirects), on the origin that served it. */
  url: string;
  status: number;
  html: string;
  attempts: number;
}

/** What the catalog service needs: one page, by path, from whichever origin serves it now. */
export interface UpstreamClient {
  /** The origin pages are fetched from now. */
  readonly origin: string;
  /**
   * Fetches one page (path plus query, e.g. "/ongoing/page/2/") within the page deadline, which
   * starts when a connection is free. Throws ServiceBusyError when none comes free in time. A
   * background fetch waits while any user's fetch waits, is tried once, and its failure does not
   * count in the breaker users' fetches go through (breaker.ts).
   */
  fetchPage(path: string, options?: { priority?: FetchPriority }): Promise<UpstreamPage>;
}

export interface ResilientUpstreamClient extends UpstreamClient {
  /** Live health for /health/upstream and the landing page. */
  status(): UpstreamStatus;
  /** Closes the solver's browser. */
  close(): Promise<void>;
}

export interface UpstreamClientOptions {
  /** Ordered origins (UPSTREAM_BASE_URLS). */
  origins: readonly string[];
  /** Deadline for one page, from when it gets a connection: retries, solves and failover included. */
  timeoutMs: number;
  /** Where the adopted origin is kept across restarts. */
  originFile: OriginStore;
  logger: Logger;
  metrics?: Metrics;
  solver?: ChallengeSolver | null;
  /** How many page fetches run at once, and how long and how many others may wait (CONNECTION_TURNS by default). */
  connections?: Partial<ConnectionTurnsOptions>;
  /** Retries after the first attempt, on network errors and 5xx only. */
  maxRetries?: number;
  /** How many users' page fetches in a row must fail for an origin's breaker to open (5 by default), and for how long (30 s). */
  breakerThreshold?: number;
  breakerCooldownMs?: number;
  /** How long a set-aside origin is skipped, and how often earlier origins are retried (15 min by default). */
  originRecheckMs?: number;
  /** How long an origin that refuses a handed-over cookie is fetched through the browser (15 min by default). */
  browserModeMs?: number;
  /** One solve and one chosen origin for all instances (src/stores/index.ts picks them). */
  shared: { clearances: SharedClearances; origin: SharedOrigin };
}

const MAX_REDIRECTS = 3;
/** Pause after a 429 that does not say how long. */
const DEFAULT_RATE_LIMIT_PAUSE_SECONDS = 60;
/** A firewall block will not lift soon; a retry in seconds would only annoy it. */
const FIREWALL_RETRY_AFTER_SECONDS = 300;

/** Builds the client the configuration describes, solver included; `options` are the stores and what tests change. */
export function createUpstreamClientFromConfig(
  config: Config,
  logger: Logger,
  metrics: Metrics,
  options: Pick<UpstreamClientOptions, 'shared' | 'originFile' | 'breakerThreshold' | 'breakerCooldownMs'>,
): ResilientUpstreamClient {
  return createUpstreamClient({
    origins: config.UPSTREAM_BASE_URLS,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    logger,
    metrics,
    solver: createSolver(config, logger),
    ...options,
  });
}

/** Failures that say the origin is in trouble; the breaker counts them. */
function countsAgainstOrigin(error: unknown): boolean {
  if (error instanceof UpstreamBadResponseError) return true;
  return error instanceof UpstreamBlockedError && ['firewall', 'solve-failed', 'refused'].includes(error.reason);
}

/** Only network failures and upstream 5xx are worth another try; walls and 404s are not. */
function isRetryable(error: unknown): boolean {
  return error instanceof UpstreamBadResponseError && (error.status === null || error.status >= 500);
}

/** One page fetch: its deadline, and a note of whether it waits for a solve, so the deadline can say what it interrupted. */
interface PageFetch {
  /** Whose fetch it is: a background one is not counted by the breaker, and not retried (its caller tries again later). */
  priority: FetchPriority;
  signal: AbortSignal;
  deadlineAt: number;
  track: (solving: boolean) => void;
}

// The home page of the AnimeStream theme: a WordPress page with the theme's card lists.
function looksLikeCatalogHome(html: string): boolean {
  return html.includes('/wp-content/') && /class="[^"]*\blistupd\b/.test(html) && /class="[^"]*\bbsx\b/.test(html);
}

export function createUpstreamClient(options: UpstreamClientOptions): ResilientUpstreamClient {
  const { logger } = options;
  const metrics = options.metrics ?? createMetrics();
  const solver = options.solver ?? null;
  const monitor = createUpstreamMonitor({
    metrics,
    origin: options.origins[0] ?? '',
    solver: { kind: solver?.kind ?? 'off', available: solver !== null },
  });
  const connections = { ...CONNECTION_TURNS, ...options.connections };
  const turns = createConnectionTurns(connections);
  // Each page fetch sends one request at a time, so the agent never queues behind the turns.
  const http = createHttpTransport({ maxConnectionsPerHost: connections.turns });
  const gate: ChallengeGate = createChallengeGate({
    solver,
    monitor,
    logger,
    browserModeMs: options.browserModeMs ?? 15 * 60_000,
    shared: options.shared.clearances,
  });
  const pauses = createHostPauses();
  const breakers = createOriginBreakers({
    threshold: options.breakerThreshold ?? 5,
    cooldownMs: options.breakerCooldownMs ?? 30_000,
    countsAsFailure: countsAgainstOrigin,
    monitor,
  });
  const recheckMs = options.originRecheckMs ?? 15 * 60_000;
  const pool = createOriginPool({
    configured: options.origins,
    store: options.originFile,
    share: options.shared.origin.publish,
    recheckMs,
    monitor,
    logger,
  });
  options.shared.origin.follow(pool);
  // Decorrelated jitter, so that retries from many requests do not line up.
  const retries = retry(handleWhen(isRetryable), {
    maxAttempts: options.maxRetries ?? 2,
    backoff: new ExponentialBackoff({ initialDelay: 250, maxDelay: 2000 }),
  });
  // Aggressive: the caller gets its answer at the deadline even if something inside ignores the signal.
  const deadline = timeout(options.timeoutMs, TimeoutStrategy.Aggressive);
  const failovers = new Map<string, Promise<string | null>>();

  async function fetchPage(path: string, { priority = 'user' }: { priority?: FetchPriority } = {}): Promise<UpstreamPage> {
    recheckEarlierOrigins();
    // The wait for a turn is ours: its refusal (ServiceBusyError) reaches neither the breaker nor the monitor.
    const release = await turns.take(priority);
    try {
      return await fetchInTurn(path, priority);
    } finally {
      release();
    }
  }

  /** One page fetch holding its turn: the page deadline starts here, when the request can be sent. */
  async function fetchInTurn(path: string, priority: FetchPriority): Promise<UpstreamPage> {
    const startUrl = new URL(path, pool.current()).href;
    const deadlineAt = Date.now() + options.timeoutMs;
    let solving = false;
    const track = (now: boolean) => {
      solving = now;
    };
    try {
      const page = await deadline.execute(({ signal }) => fetchWithFailover(path, { priority, signal, deadlineAt, track }));
      monitor.succeeded(page.url);
      return page;
    } catch (error) {
      const failure = error instanceof TaskCancelledError ? deadlineError(startUrl, solving, error) : error;
      if (failure instanceof UpstreamError && !(failure instanceof UpstreamNotFoundError)) monitor.failed(failure.url, failure.message);
      throw failure;
    }
  }

  function deadlineError(url: string, solving: boolean, cause: unknown): UpstreamError {
    if (solving)
      return new UpstreamBlockedError("The upstream's anti-bot challenge is still being solved", url, 10, 'solve-pending', { cause });
    return new UpstreamTimeoutError(`No answer from the upstream within ${options.timeoutMs} ms`, url, { cause });
  }

  /** Errors after which another origin is tried: the site moved, is not the catalog, or keeps failing. */
  function failoverTrigger(origin: string, error: unknown): { reason: string; preferred?: string } | null {
    if (error instanceof UpstreamMovedError) return { reason: `redirects to ${error.location}`, preferred: new URL(error.location).origin };
    if (error instanceof UpstreamSuspectPageError) return { reason: 'answers pages that are not the catalog' };
    if (error instanceof UpstreamUnavailableError || (countsAgainstOrigin(error) && breakers.isOpen(origin)))
      return { reason: 'keeps failing (breaker open)' };
    return null;
  }

  async function fetchWithFailover(path: string, state: PageFetch): Promise<UpstreamPage> {
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
  function failover(from: string, trigger: { reason: string; preferred?: string }, state: PageFetch): Promise<string | null> {
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
      return looksLikeCatalogHome((await fetchFromOrigin(origin, '/', state)).html) ? null : 'its home page does not look like the catalog';
    } catch (error) {
      return `its home page could not be fetched: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** Set-aside origins ahead of the current one are retried in the background, once per interval. */
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

  function fetchFromOrigin(origin: string, path: string, state: PageFetch): Promise<UpstreamPage> {
    const url = new URL(path, origin).href;
    if (state.priority === 'background') return breakers.run(origin, url, () => fetchOnce(origin, url, 1, state), 'background');
    return breakers.run(origin, url, () => retries.execute(({ attempt }) => fetchOnce(origin, url, attempt + 1, state), state.signal));
  }

  async function send(origin: string, url: string, signal: AbortSignal) {
    const used = gate.clearance(origin);
    const transport = gate.transport(origin);
    const outcome: UpstreamAnswer | UpstreamFailure = transport
      ? await transport.fetch(url)
      : await http.get(url, requestHeaders(used), signal);
    return { outcome, used, viaBrowser: transport !== undefined };
  }

  /**
   * One attempt at one page: follows same-origin redirects, and on a challenge gets a clearance
   * (shared solve), or, when a fresh one is refused, switches the origin to the browser page.
   */
  async function fetchOnce(origin: string, startUrl: string, attempts: number, state: PageFetch): Promise<UpstreamPage> {
    let url = startUrl;
    let redirects = 0;
    let fresh: Clearance | null = null;
    await pauses.waitFor(origin, url, state.deadlineAt, state.signal);
    for (;;) {
      const { outcome, used, viaBrowser } = await send(origin, url, state.signal);
      const verdict = classifyAnswer(outcome);
      monitor.fetched(origin, verdict.kind);
      switch (verdict.kind) {
        case 'ok': {
          const answer = outcome as UpstreamAnswer;
          // Our URLs name the origin that served the page, whichever of the site's origins the page links.
          const html = linksOnServingOrigin(
            answer.body,
            origin,
            pool.list().map((entry) => entry.origin),
          );
          return { url: answer.url, status: answer.status, html, attempts };
        }
        case 'redirect':
          if (++redirects > MAX_REDIRECTS) throw new UpstreamBadResponseError(`More than ${MAX_REDIRECTS} redirects`, startUrl, null);
          url = verdict.location;
          continue;
        case 'challenge':
          monitor.challenged(origin);
          fresh = await passChallenge(url, used, fresh, viaBrowser, state);
          continue;
        case 'moved':
          throw new UpstreamMovedError(
            `The upstream redirected to another site (${verdict.location}) that could not be used`,
            url,
            verdict.location,
          );
        case 'rate-limited': {
          const seconds = verdict.retryAfterSeconds ?? DEFAULT_RATE_LIMIT_PAUSE_SECONDS;
          pauses.pause(origin, seconds);
          throw new UpstreamBlockedError('The upstream is rate limiting us', url, Math.max(1, seconds), 'rate-limited');
        }
        case 'blocked':
          throw new UpstreamBlockedError('The upstream firewall blocked the request', url, FIREWALL_RETRY_AFTER_SECONDS, 'firewall');
        case 'not-found':
          throw new UpstreamNotFoundError(`The upstream has no page at ${url}`, url);
        case 'upstream-error':
          throw new UpstreamBadResponseError(
            `The upstream answered HTTP ${(outcome as UpstreamAnswer).status}`,
            url,
            (outcome as UpstreamAnswer).status,
          );
        case 'transient':
          throw new UpstreamBadResponseError(`Could not read the upstream page (${verdict.reason})`, url, null);
        case 'suspect':
          throw new UpstreamSuspectPageError('The upstream answered a page that is not the catalog (a parked or moved site?)', url);
        case 'too-large':
          throw new UpstreamUnreadablePageError(`The upstream page is over ${MAX_PAGE_BYTES} bytes`, url, 'too-large');
        case 'cut-off':
          throw new UpstreamUnreadablePageError('The upstream page ends before its end (no footer, no </html>)', url, 'cut-off');
      }
    }
  }

  /**
   * The ladder on a challenge: first a clearance (someone else's newer one, or a shared solve);
   * if the fresh one is challenged too, the browser page; if even that is, give up.
   */
  async function passChallenge(
    url: string,
    used: Clearance | undefined,
    fresh: Clearance | null,
    viaBrowser: boolean,
    { signal, track }: PageFetch,
  ): Promise<Clearance> {
    if (fresh !== null && viaBrowser)
      throw new UpstreamBlockedError("The upstream's anti-bot wall refuses even the browser", url, FIREWALL_RETRY_AFTER_SECONDS, 'refused');
    // Left set when this throws: a deadline that interrupts the solve is reported as a wall, not a timeout.
    track(true);
    const clearance = fresh ?? (await gate.cleared(url, used, signal));
    // A fresh clearance refused by the light client, or a browser page whose own clearance ran out.
    if (fresh !== null || viaBrowser) await openBrowserTransport(clearance, signal);
    track(false);
    return clearance;
  }

  async function openBrowserTransport(clearance: Clearance, signal: AbortSignal): Promise<void> {
    try {
      await gate.useBrowser(clearance, signal);
    } catch (error) {
      if (error instanceof UpstreamBlockedError) throw error;
      throw new UpstreamBlockedError('The browser page for the upstream could not be opened', clearance.origin, 60, 'refused', {
        cause: error,
      });
    }
  }

  return {
    get origin() {
      return pool.current();
    },
    fetchPage,
    status: () => monitor.status(),
    close: () => gate.close(),
  };
}

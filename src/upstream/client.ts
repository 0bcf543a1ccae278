import { ExponentialBackoff, TaskCancelledError, TimeoutStrategy, handleWhen, retry, timeout } from 'cockatiel';
import type { Config } from '../config/schema.js';
import type { Logger } from '../config/logger.js';
import { createMetrics, type Metrics } from '../metrics.js';
import type { SharedClearances } from './challenge/clearanceStore.js';
import { createOriginBreakers } from './breaker.js';
import { createChallengeLadder } from './challenge/ladder.js';
import { createSolver } from './challenge/pickSolver.js';
import type { ChallengeSolver } from './challenge/solver.js';
import { classifyAnswer, MAX_PAGE_BYTES, type UpstreamAnswer } from './classify.js';
import {
  countsAgainstOrigin,
  FIREWALL_RETRY_AFTER_SECONDS,
  UpstreamBadResponseError,
  UpstreamBlockedError,
  UpstreamError,
  UpstreamMovedError,
  UpstreamNotFoundError,
  UpstreamSuspectPageError,
  UpstreamTimeoutError,
  UpstreamUnreadablePageError,
} from './errors.js';
import { createOriginFailover } from './failover.js';
import { createHostPauses } from './hostPause.js';
import { createHttpTransport } from './http.js';
import { CONNECTION_TURNS, createConnectionTurns, type ConnectionTurnsOptions, type FetchPriority } from './connectionTurns.js';
import { createUpstreamMonitor, type UpstreamStatus } from './monitor.js';
import type { OriginStore, SharedOrigin } from './originStore.js';
import { createOriginPool } from './origins.js';
import type { PageFetch, UpstreamPage } from './pageFetch.js';

// The transport: a page fetch takes a connection turn and runs within the page deadline, through
// the origin failover (failover.ts), the origin's breaker, the retries, and the challenge ladder
// (challenge/ladder.ts) for each request; the answer is classified and turned into a page or a
// typed error.

export type { FetchPriority } from './connectionTurns.js';
export type { UpstreamPage } from './pageFetch.js';

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
  /**
   * The retries' backoff scale (250 ms by default): the first retry waits up to about 1.4 times it,
   * each later one about twice the one before, jittered, never over 2 s.
   */
  retryInitialDelayMs?: number;
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

/** The client's timing the app lets a caller set: the breaker's and the retries'; the client's defaults otherwise. */
export type UpstreamTiming = Pick<UpstreamClientOptions, 'breakerThreshold' | 'breakerCooldownMs' | 'retryInitialDelayMs'>;

const MAX_REDIRECTS = 3;
/** Pause after a 429 that does not say how long. */
const DEFAULT_RATE_LIMIT_PAUSE_SECONDS = 60;

/** Builds the client the configuration describes, solver included; `options` are the stores and what tests change. */
export function createUpstreamClientFromConfig(
  config: Config,
  logger: Logger,
  metrics: Metrics,
  options: Pick<UpstreamClientOptions, 'shared' | 'originFile'> & UpstreamTiming,
): ResilientUpstreamClient {
  return createUpstreamClient({
    origins: config.UPSTREAM_BASE_URLS,
    timeoutMs: config.UPSTREAM_TIMEOUT_S * 1000,
    logger,
    metrics,
    solver: createSolver(config, logger),
    ...options,
  });
}

/** Only network failures and upstream 5xx are worth another try; walls and 404s are not. */
function isRetryable(error: unknown): boolean {
  return error instanceof UpstreamBadResponseError && (error.status === null || error.status >= 500);
}

/** @internal exported for the tests: the tests build clients with short deadlines and their own solvers; the app builds it from its Config. */
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
  const ladder = createChallengeLadder({
    http,
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
  const pool = createOriginPool({
    configured: options.origins,
    store: options.originFile,
    share: options.shared.origin.publish,
    recheckMs: options.originRecheckMs ?? 15 * 60_000,
    monitor,
    logger,
  });
  options.shared.origin.follow(pool);
  // Decorrelated jitter, so that retries from many requests do not line up.
  const retries = retry(handleWhen(isRetryable), {
    maxAttempts: options.maxRetries ?? 2,
    backoff: new ExponentialBackoff({ initialDelay: options.retryInitialDelayMs ?? 250, maxDelay: 2000 }),
  });
  // Aggressive: the caller gets its answer at the deadline even if something inside ignores the signal.
  const deadline = timeout(options.timeoutMs, TimeoutStrategy.Aggressive);
  const failover = createOriginFailover({ pool, breakers, turns, timeoutMs: options.timeoutMs, fetchFromOrigin });

  async function fetchPage(path: string, { priority = 'user' }: { priority?: FetchPriority } = {}): Promise<UpstreamPage> {
    failover.recheckEarlierOrigins();
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
      const page = await deadline.execute(({ signal }) => failover.fetch(path, { priority, signal, deadlineAt, track }));
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

  function fetchFromOrigin(origin: string, path: string, state: PageFetch): Promise<UpstreamPage> {
    const url = new URL(path, origin).href;
    if (state.priority === 'background') return breakers.run(origin, url, () => fetchOnce(origin, url, 1, state), 'background');
    return breakers.run(origin, url, () => retries.execute(({ attempt }) => fetchOnce(origin, url, attempt + 1, state), state.signal));
  }

  /** One attempt at one page: follows same-origin redirects, and on a challenge climbs the ladder one step. */
  async function fetchOnce(origin: string, startUrl: string, attempts: number, state: PageFetch): Promise<UpstreamPage> {
    let url = startUrl;
    let redirects = 0;
    const climb = ladder.climb(origin);
    await pauses.waitFor(origin, url, state.deadlineAt, state.signal);
    for (;;) {
      const outcome = await climb.send(url, state.signal);
      const verdict = classifyAnswer(outcome);
      monitor.fetched(origin, verdict.kind);
      switch (verdict.kind) {
        case 'ok': {
          const answer = outcome as UpstreamAnswer;
          const siteOrigins = pool.list().map((entry) => entry.origin);
          return { url: answer.url, status: answer.status, body: answer.body, servedBy: origin, siteOrigins, attempts };
        }
        case 'redirect':
          if (++redirects > MAX_REDIRECTS) throw new UpstreamBadResponseError(`More than ${MAX_REDIRECTS} redirects`, startUrl, null);
          url = verdict.location;
          continue;
        case 'challenge':
          monitor.challenged(origin);
          await climb.next(url, state);
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

  return {
    get origin() {
      return pool.current();
    },
    fetchPage,
    status: () => monitor.status(),
    close: () => ladder.close(),
  };
}

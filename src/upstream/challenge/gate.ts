import type { Logger } from '../../config/logger.js';
import type { SharedClearances } from './clearanceStore.js';
import { UpstreamBlockedError } from '../errors.js';
import type { UpstreamMonitor } from '../monitor.js';
import type { Clearance } from './clearance.js';
import type { BrowserTransport, ChallengeSolver } from './solver.js';

// Keeps what got us through each origin's wall: its clearance (cookies plus the User-Agent that
// earned them) and, where a handed-over cookie is refused, a browser page to fetch through.
// Solves are single-flight per origin: concurrent challenged requests wait for the same one.

/** How long a caller is told to wait when no solver exists. */
const NO_SOLVER_RETRY_AFTER_SECONDS = 60;
/** A solve that outlasts a request's deadline goes on; the next request, this much later, is likely warm. */
const SOLVE_PENDING_RETRY_AFTER_SECONDS = 10;

export interface ChallengeGate {
  /** The clearance to send to `origin`, if an unexpired one exists. */
  clearance(origin: string): Clearance | undefined;
  /**
   * After `url` answered with a challenge to a request that sent `used`: a newer clearance when
   * another request already got one, else the result of the (shared) solve.
   */
  cleared(url: string, used: Clearance | undefined, signal: AbortSignal): Promise<Clearance>;
  /** The browser page to fetch `origin` through, while that mode lasts. */
  transport(origin: string): BrowserTransport | undefined;
  /** The handed-over cookie was refused: fetch `clearance.origin` through the browser for a while. */
  useBrowser(clearance: Clearance, signal: AbortSignal): Promise<BrowserTransport>;
  close(): Promise<void>;
}

export interface ChallengeGateOptions {
  solver: ChallengeSolver | null;
  monitor: UpstreamMonitor;
  logger: Logger;
  /** How long an origin is fetched through the browser after refusing a handed-over cookie. */
  browserModeMs: number;
  /** Clearances other instances solved, and one solve at a time across instances (src/stores/index.ts picks it). */
  shared: SharedClearances;
  now?: () => number;
}

export function createChallengeGate(options: ChallengeGateOptions): ChallengeGate {
  const { solver, monitor, logger } = options;
  const now = options.now ?? Date.now;
  const clearances = new Map<string, Clearance>();
  const solving = new Map<string, Promise<Clearance>>();
  const transports = new Map<string, { transport: BrowserTransport; until: number }>();
  const opening = new Map<string, Promise<BrowserTransport>>();

  function clearance(origin: string): Clearance | undefined {
    const current = clearances.get(origin);
    if (current !== undefined && current.expiresAt <= now()) clearances.delete(origin);
    return clearances.get(origin);
  }

  function startSolve(active: ChallengeSolver, url: string, origin: string, used: Clearance | undefined): Promise<Clearance> {
    const started = now();
    const solve = options.shared
      .solveOnce(origin, used, () => active.solve(url))
      .then(
        ({ clearance: fresh, solvedHere }) => {
          clearances.set(origin, fresh);
          const expiresAt = new Date(fresh.expiresAt).toISOString();
          if (!solvedHere) {
            logger.info({ origin, expiresAt }, 'challenge clearance taken from another instance');
            return fresh;
          }
          monitor.solved(origin, true, now() - started);
          logger.info({ origin, durationMs: now() - started, expiresAt }, 'challenge solved');
          return fresh;
        },
        (error: unknown) => {
          monitor.solved(origin, false, now() - started);
          logger.warn({ err: error, origin }, 'challenge solve failed');
          throw new UpstreamBlockedError(
            "The upstream's anti-bot challenge could not be solved",
            url,
            NO_SOLVER_RETRY_AFTER_SECONDS,
            'solve-failed',
            { cause: error },
          );
        },
      )
      .finally(() => solving.delete(origin));
    // Callers may all have left at their deadlines; the outcome is recorded above either way.
    solve.catch(() => undefined);
    solving.set(origin, solve);
    return solve;
  }

  async function cleared(url: string, used: Clearance | undefined, signal: AbortSignal): Promise<Clearance> {
    const origin = new URL(url).origin;
    if (solver === null)
      throw new UpstreamBlockedError(
        'The upstream answered with an anti-bot challenge and no solver is configured',
        url,
        NO_SOLVER_RETRY_AFTER_SECONDS,
        'no-solver',
      );
    const current = clearance(origin);
    if (current !== undefined && current !== used) return current;
    if (current === used) clearances.delete(origin);
    const solve = solving.get(origin) ?? startSolve(solver, url, origin, used);
    return untilAborted(
      solve,
      signal,
      () =>
        new UpstreamBlockedError(
          "The upstream's anti-bot challenge is still being solved",
          url,
          SOLVE_PENDING_RETRY_AFTER_SECONDS,
          'solve-pending',
        ),
    );
  }

  function transport(origin: string): BrowserTransport | undefined {
    const entry = transports.get(origin);
    if (entry === undefined) return undefined;
    if (entry.until > now()) return entry.transport;
    transports.delete(origin);
    void entry.transport.close();
    monitor.browserTransportChanged([...transports.keys()]);
    return undefined;
  }

  async function useBrowser(fresh: Clearance, signal: AbortSignal): Promise<BrowserTransport> {
    const origin = fresh.origin;
    if (solver === null) throw new Error('useBrowser needs a solver');
    await transports.get(origin)?.transport.close();
    transports.delete(origin);
    let pending = opening.get(origin);
    if (pending === undefined) {
      pending = solver.openTransport(fresh).then((opened) => {
        transports.set(origin, { transport: opened, until: now() + options.browserModeMs });
        monitor.browserTransportChanged([...transports.keys()]);
        return opened;
      });
      pending.catch(() => undefined).finally(() => opening.delete(origin));
      opening.set(origin, pending);
    }
    return untilAborted(
      pending,
      signal,
      () =>
        new UpstreamBlockedError(
          'The browser page for the upstream is still opening',
          fresh.origin,
          SOLVE_PENDING_RETRY_AFTER_SECONDS,
          'solve-pending',
        ),
    );
  }

  return {
    clearance,
    cleared,
    transport,
    useBrowser,
    async close() {
      await Promise.all([...transports.values()].map((entry) => entry.transport.close()));
      transports.clear();
      await solver?.close();
    },
  };
}

/** Waits for `work`, but no longer than `signal` allows; the work itself goes on. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, onAbort: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

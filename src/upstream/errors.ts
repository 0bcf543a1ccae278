// Typed failures of the upstream fetch. They are mapped to HTTP statuses and contract codes in
// one place (http/errors.ts); nothing here knows about our own responses.

export abstract class UpstreamError extends Error {
  constructor(
    message: string,
    /** The upstream URL that failed. */
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** No complete answer within the page deadline (retries included). */
export class UpstreamTimeoutError extends UpstreamError {
  override readonly name = 'UpstreamTimeoutError';
}

/** Why a wall stood in the way. */
export type BlockReason =
  | 'no-solver'
  | 'solve-failed'
  /** A solve still running at the request's deadline. */
  | 'solve-pending'
  /** Challenged again even through the browser. */
  | 'refused'
  | 'firewall'
  | 'rate-limited';

/** An anti-bot wall (challenge page, firewall block or upstream rate limit) stood in the way. */
export class UpstreamBlockedError extends UpstreamError {
  override readonly name = 'UpstreamBlockedError';
  constructor(
    message: string,
    url: string,
    readonly retryAfterSeconds: number,
    readonly reason: BlockReason,
    options?: { cause?: unknown },
  ) {
    super(message, url, options);
  }
}

/** A wall that will not lift soon (a firewall block, a browser refused): a retry in seconds would only annoy it. */
export const FIREWALL_RETRY_AFTER_SECONDS = 300;

/** The upstream host keeps failing, so its circuit breaker is open and nothing is sent to it. */
export class UpstreamUnavailableError extends UpstreamError {
  override readonly name = 'UpstreamUnavailableError';
  constructor(
    message: string,
    url: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, url);
  }
}

/** A 200 that is not the catalog at all (a parked domain, a "we have moved" page). */
export class UpstreamSuspectPageError extends UpstreamError {
  override readonly name = 'UpstreamSuspectPageError';
}

/** The upstream answered with an error status (5xx, or an unexpected 4xx) or could not be reached. */
export class UpstreamBadResponseError extends UpstreamError {
  override readonly name = 'UpstreamBadResponseError';
  constructor(
    message: string,
    url: string,
    readonly status: number | null,
    options?: { cause?: unknown },
  ) {
    super(message, url, options);
  }
}

/** The upstream has no such page (404/410). */
export class UpstreamNotFoundError extends UpstreamError {
  override readonly name = 'UpstreamNotFoundError';
}

/** The upstream redirected to another origin: the site has probably moved domain. */
export class UpstreamMovedError extends UpstreamError {
  override readonly name = 'UpstreamMovedError';
  constructor(
    message: string,
    url: string,
    readonly location: string,
  ) {
    super(message, url);
  }
}

/** Why a page the upstream served whole in HTTP terms cannot be used. */
export type UnreadableReason =
  /** Over the bound on a page's size (MAX_PAGE_BYTES). */
  | 'too-large'
  /** It ends before its end: no `</html>` and no theme footer (PHP died mid-render). */
  | 'cut-off'
  /** Not parsed within the parse deadline or the parser's memory bound: markup no real page has. */
  | 'unparsable';

/** A 200 page this service will not use: too large, cut off, or not parsable within its bounds. */
export class UpstreamUnreadablePageError extends UpstreamError {
  override readonly name = 'UpstreamUnreadablePageError';
  constructor(
    message: string,
    url: string,
    readonly reason: UnreadableReason,
    options?: { cause?: unknown },
  ) {
    super(message, url, options);
  }
}

/**
 * This service's own queue in front of the upstream (a connection) or of the parse (a thread) is
 * full right now. Not an UpstreamError: the site is not to blame, so neither the breaker nor the
 * upstream's health hears of it.
 */
export class ServiceBusyError extends Error {
  override readonly name = 'ServiceBusyError';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Failures that say the origin is in trouble: its breaker counts them, and once it is open they send us to another origin. */
export function countsAgainstOrigin(error: unknown): boolean {
  if (error instanceof UpstreamBadResponseError) return true;
  return error instanceof UpstreamBlockedError && ['firewall', 'solve-failed', 'refused'].includes(error.reason);
}

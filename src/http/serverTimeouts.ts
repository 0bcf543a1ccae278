export interface ServerTimeouts {
  /** The request line and headers must have arrived within this. */
  headersTimeoutMs: number;
  /** The whole request, body included, must have arrived within this. */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

/**
 * Tight enough that stalled clients cannot hold connections for minutes (Node's defaults: 60 s for
 * headers, 300 s for a request), loose enough for a 32 KB report over a slow mobile link.
 */
export const SERVER_TIMEOUTS: ServerTimeouts = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 };

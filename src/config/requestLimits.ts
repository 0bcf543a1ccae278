// The limits a request must keep: the error table documents them, the server and the body parser enforce them.

export interface ServerTimeouts {
  /** The request line and headers must have arrived within this. */
  headersTimeoutMs: number;
  /** The whole request, body included, must have arrived within this. */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /**
   * Node checks the two request timeouts this often, so a stalled request is answered up to this late
   * (its default, 30 s, would add up to 30 s to each).
   */
  timeoutCheckEveryMs: number;
}

/**
 * Tight enough that stalled clients cannot hold connections for minutes (Node's defaults: 60 s for
 * headers, 300 s for a request), loose enough for a 32 KB report over a slow mobile link.
 */
export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  timeoutCheckEveryMs: 1_000,
};

/**
 * The largest body we read. A report is at most 1,100 characters; even as 4-byte emoji,
 * percent-encoded in a form (12 bytes each), it stays under this.
 */
export const BODY_LIMIT_BYTES = 32 * 1024;

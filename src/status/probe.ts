import { endpoints } from '../catalog/endpoints/index.js';
import type { CatalogService } from '../catalog/service.js';
import type { ErrorCode } from '../contract/schemas.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { ProbeRecord } from './records.js';

// The home page: one cheap upstream page that every visitor's first request needs anyway, so the
// probe's answer warms the cache (its 5-minute TTL matches the default probe interval).
const PROBED = endpoints.find((endpoint) => endpoint.path === '/catalog/home');
if (PROBED === undefined) throw new Error('the endpoint table has no /catalog/home for the status probe');
const PROBED_ENDPOINT = PROBED;
const SERVICE_BUSY: ErrorCode = 'SERVICE_BUSY';
const PROBED_INPUT = PROBED_ENDPOINT.input.parse({});

export interface ProbeDeps {
  catalog: CatalogService;
  upstream: UpstreamClient;
  now: () => number;
  /** The contract's code of a failure (the error mapper, src/http/errorTable.ts). */
  errorCodeOf: (error: unknown) => ErrorCode;
}

/**
 * Fetches the home page through the catalog service (so through the whole upstream ladder:
 * challenge, failover, breaker) and says how it went, or null when the service itself had no room
 * for the fetch (SERVICE_BUSY: every connection turn or parse slot taken by users), which says
 * nothing about the site and must not show as "down" on the status page. The service's fetch always goes to the
 * upstream, whatever the cache holds (with REDIS_URL it may join a fetch another instance started
 * after the probe did); it counts against no client's quota.
 */
export async function probeUpstream({ catalog, upstream, now, errorCodeOf }: ProbeDeps): Promise<ProbeRecord | null> {
  const at = now();
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    // Newer than now: with REDIS_URL, an answer another instance stored earlier proves nothing.
    // Background work: its failures never move the breaker users' requests go through.
    const { staleReason, upstream: fetched } = await catalog.fetch(PROBED_ENDPOINT, PROBED_INPUT, at, 'background');
    if (staleReason === SERVICE_BUSY) return null;
    // The last good answer standing in for a failed fetch: the upstream is down all the same.
    if (staleReason !== undefined)
      return { kind: 'probe', at, outcome: 'down', code: staleReason, durationMs: took(), origin: upstream.origin };
    return {
      kind: 'probe',
      at,
      outcome: 'up',
      code: null,
      durationMs: took(),
      origin: fetched === undefined ? upstream.origin : new URL(fetched.url).origin,
    };
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === SERVICE_BUSY) return null;
    return { kind: 'probe', at, outcome: 'down', code, durationMs: took(), origin: upstream.origin };
  }
}

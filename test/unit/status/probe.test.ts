import { describe, expect, it } from 'vitest';
import type { CatalogResult } from '../../../src/catalog/answerLifecycle.js';
import type { CatalogService } from '../../../src/catalog/service.js';
import { describeError } from '../../../src/http/errorTable.js';
import { probeUpstream } from '../../../src/status/probe.js';
import type { UpstreamClient } from '../../../src/upstream/client.js';
import { ServiceBusyError, UpstreamTimeoutError } from '../../../src/upstream/errors.js';

const ORIGIN = 'https://site.example';
const AT = Date.parse('2026-11-20T10:00:00Z');

/** The probe over a catalog whose fetch does what `fetch` says (only fetch is called by the probe). */
function probeWith(fetch: () => Promise<CatalogResult>) {
  return probeUpstream({
    catalog: { fetch } as unknown as CatalogService,
    upstream: { origin: ORIGIN } as unknown as UpstreamClient,
    now: () => AT,
    errorCodeOf: (error) => describeError(error).code,
  });
}

const MIRROR = 'https://mirror.site.example';
const answer = {} as CatalogResult['answer'];

describe('status probe', () => {
  it('records the site up when the home page is fetched, with the origin that answered', async () => {
    const fetched = await probeWith(async () => ({
      answer,
      cacheStatus: 'MISS',
      upstream: { url: `${MIRROR}/`, status: 200, attempts: 2, durationMs: 40 },
    }));
    expect(fetched).toMatchObject({ kind: 'probe', at: AT, outcome: 'up', code: null, origin: MIRROR });
    // An answer another instance fetched (through Redis) says nothing of the origin: the one in use.
    const joined = await probeWith(async () => ({ answer, cacheStatus: 'HIT' }));
    expect(joined).toMatchObject({ outcome: 'up', origin: ORIGIN });
  });

  it("records the site down, with the failure's code, when the site fails", async () => {
    const record = await probeWith(async () => {
      throw new UpstreamTimeoutError('the site took too long', `${ORIGIN}/`);
    });
    expect(record).toMatchObject({ outcome: 'down', code: 'UPSTREAM_TIMEOUT' });
  });

  it('records the site down when only the last good answer stood in', async () => {
    const record = await probeWith(async () => ({ answer, cacheStatus: 'STALE', staleReason: 'UPSTREAM_UNAVAILABLE' }));
    expect(record).toMatchObject({ outcome: 'down', code: 'UPSTREAM_UNAVAILABLE' });
  });

  it('records nothing when the service itself had no room for the fetch: that says nothing about the site', async () => {
    const thrown = await probeWith(async () => {
      throw new ServiceBusyError('every connection turn is taken', 5);
    });
    const standIn = await probeWith(async () => ({ answer, cacheStatus: 'STALE', staleReason: 'SERVICE_BUSY' }));
    expect([thrown, standIn]).toEqual([null, null]);
  });
});

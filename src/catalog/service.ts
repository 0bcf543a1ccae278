import { createHash } from 'node:crypto';
import type { Logger } from '../config/logger.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { AnyEndpoint, UpstreamSite } from './endpoints.js';

/** A ready-to-send answer: the JSON bytes and what the HTTP layer needs to describe them. */
export interface CatalogResponse {
  body: Buffer;
  etag: string;
  /** When the upstream page was fetched (ms since epoch). */
  fetchedAt: number;
  ttlSeconds: number;
  upstream: { url: string; status: number; attempts: number; durationMs: number };
}

export interface CatalogService {
  get(endpoint: AnyEndpoint, query: unknown): Promise<CatalogResponse>;
}

export interface CatalogServiceDeps {
  upstream: UpstreamClient;
  site: UpstreamSite;
  logger: Logger;
}

export function createCatalogService({ upstream, site, logger }: CatalogServiceDeps): CatalogService {
  async function get(endpoint: AnyEndpoint, query: unknown): Promise<CatalogResponse> {
    // The route validated `query` with this endpoint's own schema, so the cast is exact.
    const typedQuery = query as never;
    const started = performance.now();
    const page = await upstream.fetchPage(endpoint.upstreamPath(typedQuery, site));
    const durationMs = Math.round(performance.now() - started);
    const parsed = endpoint.parse(page.html, page.url, typedQuery);
    if (parsed.missing.length > 0) {
      logger.warn({ endpoint: endpoint.path, source: page.url, missing: parsed.missing }, 'optional upstream blocks missing');
    }
    const pagination = endpoint.paginated ? parsed.pagination : null;
    // The ETag covers what the client reads (data, pagination, source) but not fetchedAt, so a
    // refetch of unchanged upstream data still revalidates with 304; hence a weak validator.
    const content = JSON.stringify({ data: parsed.data, pagination });
    const meta = JSON.stringify({ source: page.url, fetchedAt: page.fetchedAt.toISOString() });
    const body = Buffer.from(`{"status":"success",${content.slice(1, -1)},"meta":${meta}}`);
    const etag = `W/"${createHash('sha1').update(page.url).update(content).digest('base64url')}"`;
    return {
      body,
      etag,
      fetchedAt: page.fetchedAt.getTime(),
      ttlSeconds: endpoint.ttlSeconds,
      upstream: { url: page.url, status: page.status, attempts: page.attempts, durationMs },
    };
  }

  return { get };
}

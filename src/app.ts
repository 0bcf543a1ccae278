import express, { type Express } from 'express';
import type { UpstreamSite } from './catalog/endpoints.js';
import { createCatalogService } from './catalog/service.js';
import type { Config } from './config/schema.js';
import type { Logger } from './config/logger.js';
import { errorHandler, notFoundHandler } from './http/errorHandler.js';
import { requestId } from './http/middleware/requestId.js';
import { catalogRateLimit } from './http/middleware/rateLimit.js';
import { requestLog } from './http/middleware/requestLog.js';
import { createCatalogRouter } from './http/routes/catalog.js';
import { createServiceRouter } from './http/routes/health.js';
import { createUpstreamClient, type UpstreamClient } from './upstream/client.js';

export interface AppDeps {
  config: Config;
  logger: Logger;
  /** Injected by tests; built from the config otherwise. */
  upstream?: UpstreamClient;
}

/** Assembles the app without listening, so tests drive it with supertest. */
export function createApp({ config, logger, upstream }: AppDeps): Express {
  const origin = config.UPSTREAM_BASE_URLS[0] as string;
  const site: UpstreamSite = { seriesPath: config.UPSTREAM_SERIES_PATH };
  const catalog = createCatalogService({
    upstream: upstream ?? createUpstreamClient({ origin, timeoutMs: config.UPSTREAM_TIMEOUT_MS }),
    site,
    logger,
  });

  const app = express();
  app.disable('x-powered-by');
  // Catalog answers carry their own precomputed ETag; Express's per-response hashing is not wanted.
  app.set('etag', false);
  // Repeated parameters arrive as arrays, so "page=1&page=2" can be refused rather than guessed.
  app.set('query parser', 'simple');
  app.set('trust proxy', config.TRUST_PROXY);

  app.use(requestId(logger));
  app.use(requestLog);
  app.use(createServiceRouter());
  // Only the API counts against the quota: pages, static files and /health never do.
  app.use(createCatalogRouter(catalog, catalogRateLimit(config)));
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}

import type { RequestListener, Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import { AnswerCache } from './catalog/cache.js';
import { warmPageParser } from './catalog/pageParser.js';
import { createCatalogService } from './catalog/service.js';
import { checkTtlOverrides, endpoints, freshSeconds } from './catalog/endpoints/index.js';
import type { Config } from './config/schema.js';
import type { Logger } from './config/logger.js';
import { errorHandler, notFoundHandler } from './http/errorHandler.js';
import { describeError } from './http/errorTable.js';
import { createDoor } from './http/door.js';
import { requestId } from './http/middleware/requestId.js';
import { apiQuota, reportRateLimit, type ClientAddress } from './http/middleware/rateLimit.js';
import { requestLog } from './http/middleware/requestLog.js';
import { securityHeaders } from './http/middleware/securityHeaders.js';
import { createAdminRouter } from './http/routes/admin.js';
import { canonicalUrlOf } from './feeds/drafts.js';
import { createFeedService } from './feeds/service.js';
import { createHealthRouter } from './http/routes/health.js';
import { createOpenApiRouter } from './http/routes/openapi.js';
import { createPagesRouter } from './http/routes/pages.js';
import { createReportsApiRouter } from './http/routes/reports.js';
import { createReportService } from './reports/service.js';
import { createUpstreamClientFromConfig, type ResilientUpstreamClient, type UpstreamTiming } from './upstream/client.js';
import { createSitePaths } from './upstream/sitePaths.js';
import { createMetrics, registerAnswerCacheMetrics, type Metrics } from './metrics.js';
import { requestMetrics } from './http/middleware/requestMetrics.js';
import { createHttpServer } from './http/server.js';
import { addressOf, originRuleOf, type TrustProxy } from './http/requestOrigin.js';
import { catalogResource } from './http/resources/catalog.js';
import { exportResource } from './http/resources/export.js';
import { feedResource } from './http/resources/feeds.js';
import { createStatusRouter } from './http/routes/status.js';
import { createStatusMonitor, PROBE_INTERVAL_MS } from './status/monitor.js';
import { everyInterval, type ProbeSchedule } from './status/schedule.js';
import { createSharedStores, type RedisTiming } from './stores/index.js';
import { createCatalogIndex, type LocalCatalog } from './crawler/localCatalog.js';
import { createCatalogTitleSearch, withTitleSearch } from './search/catalogSearch.js';
import { CRAWL_PASSES, startCrawler, type CrawlPasses } from './crawler/crawler.js';
import { CRAWL_LOCK_TIMING, type CrawlLockTiming } from './crawler/crawlLock.js';
import type { UserRequests } from './crawler/loopYield.js';
import { registerCrawlMetrics } from './crawler/crawlMetrics.js';
import { createCatalogFiles } from './export/catalogFiles.js';

export interface AppDeps {
  config: Config;
  logger: Logger;
  /** Injected by tests; built from the config otherwise. */
  upstream?: ResilientUpstreamClient;
  /** The registry behind /metrics; a test that injects `upstream` passes the one its client counts into. */
  metrics?: Metrics;
  /** The clock of the cache and its headers; tests move it to expire answers. */
  now?: () => number;
  /** When the status probe runs; tests trigger it by hand. A timer every `probeIntervalMs` otherwise. */
  scheduleProbe?: ProbeSchedule;
  /** The crawl lock's life and retry with REDIS_URL; tests shorten them to see a takeover soon. */
  crawlLockTiming?: CrawlLockTiming;
  /** How often the crawler looks for updates and reads every series again, and how long it first backs off; tests shorten them. */
  crawlPasses?: Partial<CrawlPasses>;
  /** How often the local catalog looks for what another instance's crawler wrote (REDIS_URL); tests shorten it. */
  catalogSyncEveryMs?: number;
  /** The time between two status probes; tests lengthen or shorten it. */
  probeIntervalMs?: number;
  /** The upstream client's breaker threshold and cooldown and its retries' backoff; tests lower them. The client's own defaults otherwise. */
  upstreamTiming?: UpstreamTiming;
  /** How often an idle Redis is pinged and the longest wait between reconnects (REDIS_URL); tests shorten them. */
  redisTiming?: RedisTiming;
}

/**
 * The service as one request listener, like an Express app: the Express app behind the API's door.
 * `listen` mirrors Express's; `close` stops what the upstream client keeps open (its browser).
 */
export type App = RequestListener & {
  express: Express;
  /** The crawler's local catalog, as the title search and the status page read it. */
  localCatalog: LocalCatalog;
  listen(port: number, host?: string): Server;
  close(): Promise<void>;
};

/** Assembles the app without listening, so tests drive it with supertest. */
export function createApp({
  config,
  logger,
  upstream: injectedUpstream,
  metrics = createMetrics(),
  now = Date.now,
  scheduleProbe = everyInterval,
  crawlLockTiming = CRAWL_LOCK_TIMING,
  crawlPasses,
  catalogSyncEveryMs,
  probeIntervalMs = PROBE_INTERVAL_MS,
  upstreamTiming,
  redisTiming,
}: AppDeps): App {
  checkTtlOverrides(config);
  const shared = createSharedStores({ config, logger, metrics, now, crawlLockTtlMs: crawlLockTiming.ttlMs, redisTiming });
  const { redis } = shared;
  const upstream =
    injectedUpstream ??
    createUpstreamClientFromConfig(config, logger, metrics, { shared, originFile: shared.originFile, ...upstreamTiming });
  const paths = createSitePaths({
    upstream,
    store: shared.sitePaths,
    overrides: { series: config.UPSTREAM_SERIES_PATH, list: config.UPSTREAM_LIST_PATH },
    logger,
    now,
  });
  void warmPageParser();
  const answerCache = new AnswerCache({
    maxBytes: config.CACHE_MAX_MB * 1024 * 1024,
    staleMaxMs: config.STALE_WHILE_REVALIDATE_S * 1000,
    now,
  });
  registerAnswerCacheMetrics(metrics.registry, () => answerCache.size);
  const siteCatalog = createCatalogService({
    upstream,
    paths,
    logger,
    cache: answerCache,
    ttlSeconds: (endpoint) => freshSeconds(endpoint, config),
    now,
    onLookup: metrics.countLookup,
    answers: shared.answers,
    deadlineMs: config.UPSTREAM_TIMEOUT_S * 1000,
    staleIfErrorMs: config.STALE_IF_ERROR_S * 1000,
    codeOf: (error) => describeError(error).code,
    onStale: (reason) => metrics.answersServedStale.inc({ reason }),
  });

  const catalogIndex = createCatalogIndex({
    store: shared.catalog,
    enabled: config.CRAWL_ENABLED,
    logger,
    syncEveryMs: catalogSyncEveryMs,
  });
  // Searches with source=catalog answer from the local catalog's title index, on the same paths, cache and TTL.
  const searchEndpoint = endpoints.find((endpoint) => endpoint.path === '/catalog/search')!;
  const titleSearch = createCatalogTitleSearch(catalogIndex, {
    source: () => upstream.origin,
    now,
    ttlSeconds: freshSeconds(searchEndpoint, config),
  });
  const catalog = withTitleSearch(siteCatalog, titleSearch, answerCache);
  const onCrawlStep = registerCrawlMetrics(metrics.registry, catalogIndex.state);
  const userRequests: UserRequests = { count: 0 };
  const crawler = config.CRAWL_ENABLED
    ? startCrawler({
        catalog,
        index: catalogIndex,
        lock: shared.crawlLock,
        lockRetryMs: crawlLockTiming.retryMs,
        intervalMs: config.CRAWL_INTERVAL_S * 1000,
        ...CRAWL_PASSES,
        ...crawlPasses,
        now,
        logger,
        onStep: onCrawlStep,
        userRequests,
      })
    : undefined;
  const catalogFiles = createCatalogFiles({ index: catalogIndex, enabled: config.CRAWL_ENABLED, source: () => upstream.origin });

  const app = express();
  app.disable('x-powered-by');
  // Catalog answers carry their own precomputed ETag; Express's per-response hashing is not wanted.
  app.set('etag', false);
  // Repeated parameters arrive as arrays, so "page=1&page=2" can be refused rather than guessed.
  app.set('query parser', 'simple');
  app.set('trust proxy', config.TRUST_PROXY);
  // Links in pages, feeds and /openapi.json are built on it when set (requestOrigin.ts).
  app.set('public url', config.PUBLIC_URL);
  // Express's req.ip rule, compiled once from TRUST_PROXY, for the door too.
  const trustProxy = app.get('trust proxy fn') as TrustProxy;
  const clientAddress: ClientAddress = (req) => addressOf(req, trustProxy);
  const quota = apiQuota(config, clientAddress, shared.quota('quota:api:'));
  const reports = createReportService(shared.reports);
  // One quota instance for the form and the JSON route: together they share REPORT_RATE_LIMIT_MAX.
  const reportQuota = reportRateLimit(config, clientAddress, shared.quota('quota:report:'));
  // views/ and public/ sit beside src/ and dist/, so both the tsx and the built run find them.
  app.set('views', fileURLToPath(new URL('../views', import.meta.url)));
  app.set('view engine', 'ejs');
  // Every page can show the upstream's live status (the landing page does), read when it renders.
  app.locals.upstreamStatus = () => upstream.status();

  app.use(requestId);
  const status = createStatusMonitor({
    store: shared.statusHistory,
    catalog,
    upstream,
    logger,
    now,
    errorCodeOf: (error) => describeError(error).code,
    probeIntervalMs,
    schedule: scheduleProbe,
  });
  app.use(requestLog(logger, status.recordRequest));
  app.use(requestMetrics(metrics));
  // helmet's headers are for documents; the JSON API sets the one that applies to it.
  app.use(securityHeaders);
  app.use(express.static(fileURLToPath(new URL('../public', import.meta.url)), { index: false, maxAge: '1h' }));
  app.use(createHealthRouter({ upstream, paths, metrics, redis }));
  app.use(createStatusRouter(status, now, catalogIndex.state, () => paths.status()));
  app.use(createOpenApiRouter(config));
  app.use(createPagesRouter(config, reports, reportQuota, now));
  app.use(createReportsApiRouter(reports, reportQuota));
  if (config.ADMIN_TOKEN) app.use(createAdminRouter(reports, config.ADMIN_TOKEN));
  app.use(notFoundHandler);
  app.use(errorHandler(logger));

  const feeds = createFeedService({ catalog, firstSeen: shared.firstSeen, canonical: canonicalUrlOf(config.UPSTREAM_BASE_URLS[0]!), now });
  // The API's door, in front of Express: one entry per kind of resource. Only the API counts
  // against this quota: pages, static files, /health and CORS preflights never do.
  const door = createDoor(app, {
    resources: [
      catalogResource(catalog, now),
      feedResource(feeds, originRuleOf(app), now),
      exportResource(catalogFiles, originRuleOf(app)),
    ],
    quota,
    logger,
    metrics,
    onFinished: status.recordRequest,
  });
  // Every request, counted as it comes in: the crawler yields to users while they keep the service busy.
  const listener: RequestListener = (req, res) => {
    userRequests.count++;
    door(req, res);
  };
  return Object.assign(listener, {
    express: app,
    localCatalog: catalogIndex,
    listen: (port: number, host?: string) => createHttpServer(listener, logger).listen(port, host),
    close: async () => {
      // First: the status monitor saves the hour's traffic, to Redis too; the crawler ends its step.
      await Promise.all([status.close(), crawler?.stop()]);
      titleSearch.close();
      await catalogIndex.close();
      await Promise.all([upstream.close(), shared.close()]);
    },
  });
}

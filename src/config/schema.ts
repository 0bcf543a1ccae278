import { z } from 'zod';

// Every environment variable the service reads, with its default and rule. `.env.example`
// lists the same variables; the README's configuration table is written from this file.

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));

const origin = z
  .string()
  .trim()
  .transform((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: `"${text}" is not a URL (expected e.g. https://anichin.cafe)` });
      return z.NEVER;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: `"${text}" must be an http(s) origin with no path, like https://anichin.cafe` });
      return z.NEVER;
    }
    return url.origin;
  });

// A Redis server URL: redis://[user:password@]host[:port][/db], or rediss:// for TLS.
const redisUrl = z
  .string()
  .trim()
  .refine((text) => URL.canParse(text) && ['redis:', 'rediss:'].includes(new URL(text).protocol), {
    message: 'REDIS_URL must be a redis:// or rediss:// URL, like redis://127.0.0.1:6379',
  });

/**
 * A path of the site as the theme builds it: one segment between slashes ("/seri/"), written with or
 * without the slashes; where `rootAllowed`, "/" too (a site whose series pages sit at "/{slug}/").
 */
const sitePath = (name: string, example: string, rootAllowed: boolean) =>
  z
    .string()
    .trim()
    .regex(
      rootAllowed ? /^(?:\/|\/?[a-z0-9][a-z0-9-]*\/?)$/i : /^\/?[a-z0-9][a-z0-9-]*\/?$/i,
      `${name} must be one path segment such as ${example}${rootAllowed ? ', or / for pages at the site root' : ''}`,
    )
    .transform((text) => (text === '/' ? '/' : `/${text.replace(/^\/|\/$/g, '')}/`));

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const SOLVERS = ['auto', 'chromium', 'flaresolverr', 'off'] as const;

// Express's `trust proxy`: a hop count, a list of trusted addresses/subnets, or false.
// `true` (trust every X-Forwarded-For) is refused: it lets any caller forge its address.
const trustProxy = z
  .string()
  .trim()
  .transform((text, ctx): number | string[] | false => {
    if (text === '' || text === 'false' || text === '0') return false;
    if (/^\d+$/.test(text)) return Number(text);
    if (text === 'true') {
      ctx.addIssue({
        code: 'custom',
        message: 'TRUST_PROXY=true would trust forged X-Forwarded-For headers; give a hop count (e.g. 1) or the proxy addresses',
      });
      return z.NEVER;
    }
    return text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
  });

export const ConfigSchema = z
  .object({
    PORT: wholeNumber('PORT', 0, 65535).default(3000),
    HOST: z.string().trim().min(1).default('0.0.0.0'),
    UPSTREAM_BASE_URLS: z
      .string()
      .default('https://anichin.cafe')
      .transform((text) =>
        text
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      )
      .pipe(z.array(origin).min(1, 'UPSTREAM_BASE_URLS needs at least one origin')),
    // Unset (the default): the site's paths are learned from its own pages (src/upstream/sitePaths.ts).
    UPSTREAM_SERIES_PATH: sitePath('UPSTREAM_SERIES_PATH', '/seri/', true).optional(),
    UPSTREAM_LIST_PATH: sitePath('UPSTREAM_LIST_PATH', '/anime/', false).optional(),
    UPSTREAM_TIMEOUT_MS: wholeNumber('UPSTREAM_TIMEOUT_MS', 100, 120000).default(10000),
    // Upstream resilience (src/upstream/): the challenge solver, the breaker and the origin failover.
    SOLVER: z.enum(SOLVERS, { error: `SOLVER must be one of ${SOLVERS.join(', ')}` }).default('auto'),
    CHROMIUM_PATH: z
      .string()
      .trim()
      .regex(/^\//, 'CHROMIUM_PATH must be an absolute path such as /usr/bin/chromium')
      .default('/usr/bin/chromium'),
    FLARESOLVERR_URL: z.string().trim().pipe(origin).optional(),
    UPSTREAM_SOLVE_TIMEOUT_MS: wholeNumber('UPSTREAM_SOLVE_TIMEOUT_MS', 1000, 300000).default(30000),
    UPSTREAM_BREAKER_THRESHOLD: wholeNumber('UPSTREAM_BREAKER_THRESHOLD', 1, 1000).default(5),
    UPSTREAM_BREAKER_COOLDOWN_MS: wholeNumber('UPSTREAM_BREAKER_COOLDOWN_MS', 100, 3600000).default(30000),
    UPSTREAM_ORIGIN_RECHECK_MS: wholeNumber('UPSTREAM_ORIGIN_RECHECK_MS', 100, 86400000).default(900000),
    UPSTREAM_BROWSER_MODE_MS: wholeNumber('UPSTREAM_BROWSER_MODE_MS', 1000, 86400000).default(900000),
    BROWSER_IDLE_MS: wholeNumber('BROWSER_IDLE_MS', 100, 86400000).default(300000),
    RATE_LIMIT_MAX: wholeNumber('RATE_LIMIT_MAX', 1, 1000000).default(50),
    RATE_LIMIT_WINDOW_MS: wholeNumber('RATE_LIMIT_WINDOW_MS', 1000, 86400000).default(3600000),
    REPORT_RATE_LIMIT_MAX: wholeNumber('REPORT_RATE_LIMIT_MAX', 1, 10000).default(5),
    CACHE_MAX_MB: wholeNumber('CACHE_MAX_MB', 1, 4096).default(64),
    CACHE_STALE_MAX_S: wholeNumber('CACHE_STALE_MAX_S', 0, 604800).default(86400),
    // How long each endpoint's answers stay fresh (seconds); each endpoint names its variable.
    CACHE_TTL_HOME_S: wholeNumber('CACHE_TTL_HOME_S', 1, 604800).default(300),
    CACHE_TTL_SEARCH_S: wholeNumber('CACHE_TTL_SEARCH_S', 1, 604800).default(600),
    CACHE_TTL_GENRES_S: wholeNumber('CACHE_TTL_GENRES_S', 1, 604800).default(43200),
    CACHE_TTL_ONGOING_S: wholeNumber('CACHE_TTL_ONGOING_S', 1, 604800).default(600),
    CACHE_TTL_POPULAR_S: wholeNumber('CACHE_TTL_POPULAR_S', 1, 604800).default(1800),
    CACHE_TTL_NEW_MOVIE_S: wholeNumber('CACHE_TTL_NEW_MOVIE_S', 1, 604800).default(1800),
    CACHE_TTL_SERIES_S: wholeNumber('CACHE_TTL_SERIES_S', 1, 604800).default(600),
    CACHE_TTL_EPISODE_S: wholeNumber('CACHE_TTL_EPISODE_S', 1, 604800).default(3600),
    CACHE_TTL_LISTING_S: wholeNumber('CACHE_TTL_LISTING_S', 1, 604800).default(600),
    CACHE_TTL_SCHEDULE_S: wholeNumber('CACHE_TTL_SCHEDULE_S', 1, 604800).default(1800),
    CACHE_TTL_SEASON_S: wholeNumber('CACHE_TTL_SEASON_S', 1, 604800).default(3600),
    CACHE_TTL_AZ_S: wholeNumber('CACHE_TTL_AZ_S', 1, 604800).default(3600),
    TRUST_PROXY: trustProxy.default(false),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    // Unset means the operator endpoints (/admin/*) do not exist at all.
    ADMIN_TOKEN: z.string().trim().min(24, 'ADMIN_TOKEN must be at least 24 characters (e.g. openssl rand -hex 24)').optional(),
    // Unset: every instance keeps its shared things to itself (src/stores/index.ts picks them).
    REDIS_URL: redisUrl.optional(),
    // How often the status page's probe fetches the upstream's home page (GET /status).
    STATUS_PROBE_INTERVAL_S: wholeNumber('STATUS_PROBE_INTERVAL_S', 10, 86400).default(300),
    // The service's public origin (e.g. https://api.example): links in pages, feeds, the export and
    // /openapi.json use it instead of the request's Host, which a client can forge.
    PUBLIC_URL: z.string().trim().pipe(origin).optional(),
    // The last good answers, kept for when the site fails: how long after their fetch, and how much.
    STALE_IF_ERROR_S: wholeNumber('STALE_IF_ERROR_S', 0, 31536000).default(604800),
    ANSWER_STORE_MAX_MB: wholeNumber('ANSWER_STORE_MAX_MB', 1, 1048576).default(512),
    // The catalog crawler behind /export/* and /catalog/search?source=catalog.
    CRAWL_ENABLED: z
      .enum(['true', 'false'], { error: 'CRAWL_ENABLED must be true or false' })
      .default('true')
      .transform((text) => text === 'true'),
    CRAWL_INTERVAL_MS: wholeNumber('CRAWL_INTERVAL_MS', 0, 3600000).default(3000),
    CRAWL_UPDATE_S: wholeNumber('CRAWL_UPDATE_S', 1, 604800).default(600),
    CRAWL_FULL_PASS_S: wholeNumber('CRAWL_FULL_PASS_S', 60, 2592000).default(86400),
    LOG_LEVEL: z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  })
  .superRefine((config, ctx) => {
    if (config.SOLVER === 'flaresolverr' && config.FLARESOLVERR_URL === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['FLARESOLVERR_URL'],
        message: 'SOLVER=flaresolverr needs FLARESOLVERR_URL (e.g. http://127.0.0.1:8191)',
      });
  });

export type Config = z.infer<typeof ConfigSchema>;

export type CacheTtlVariable = Extract<keyof Config, `CACHE_TTL_${string}`>;

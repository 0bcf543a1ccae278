import { z } from 'zod';

// Every environment variable the service reads, with its default and rule. Each default is the text
// an operator would write (a prefault, parsed like a given value), so the schema's input JSON Schema
// holds it: /docs lists the variables from there, and tests hold `.env.example` and the README's
// table to it. A variable no longer read is in retired.ts.

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));

/** A duration: every one is in seconds, to the millisecond at most (0.25, 10). */
const seconds = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d{1,3})?$/, `${name} must be seconds from ${min} to ${max}, such as 10 or 0.5`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`));

const TTL_MAX_SECONDS = 604800;

// "/catalog/home=60, /catalog/series/{slug}=300": an endpoint's path as the table and /docs write it, and whole seconds.
const ttlOverrides = z
  .string()
  .trim()
  .transform((text, ctx): Record<string, number> => {
    const overrides: Record<string, number> = {};
    for (const entry of text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const match = /^(\/catalog\/[^\s=]+)=(\d+)$/.exec(entry);
      const ttl = match ? Number(match[2]) : NaN;
      if (match === null || ttl < 1 || ttl > TTL_MAX_SECONDS) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" must be an endpoint's path and whole seconds from 1 to ${TTL_MAX_SECONDS}, like /catalog/home=60`,
        });
        return z.NEVER;
      }
      overrides[match[1]!] = ttl;
    }
    return overrides;
  });

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

// auto (Chromium when CHROMIUM_PATH is there, else none), chromium, off, or a FlareSolverr-compatible
// service's URL, which names the solver and where it is at once.
const solver = z
  .string()
  .trim()
  .transform((text, ctx): { kind: 'auto' | 'chromium' | 'off' } | { kind: 'flaresolverr'; url: string } => {
    if (text === 'auto' || text === 'chromium' || text === 'off') return { kind: text };
    const url = origin.safeParse(text);
    if (/^https?:\/\//.test(text) && url.success) return { kind: 'flaresolverr', url: url.data };
    ctx.addIssue({
      code: 'custom',
      message:
        text === 'flaresolverr'
          ? "SOLVER takes the FlareSolverr service's URL itself, such as http://127.0.0.1:8191"
          : 'SOLVER must be auto, chromium, off, or the URL of a FlareSolverr service such as http://127.0.0.1:8191',
    });
    return z.NEVER;
  });

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

export const ConfigSchema = z.object({
  PORT: wholeNumber('PORT', 0, 65535).prefault('3000'),
  HOST: z.string().trim().min(1).prefault('0.0.0.0'),
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
  UPSTREAM_TIMEOUT_S: seconds('UPSTREAM_TIMEOUT_S', 0.1, 120).prefault('10'),
  // The anti-bot challenge solver (src/upstream/challenge/pickSolver.ts).
  SOLVER: solver.prefault('auto'),
  CHROMIUM_PATH: z
    .string()
    .trim()
    .regex(/^\//, 'CHROMIUM_PATH must be an absolute path such as /usr/bin/chromium')
    .prefault('/usr/bin/chromium'),
  RATE_LIMIT_MAX: wholeNumber('RATE_LIMIT_MAX', 1, 1000000).prefault('50'),
  RATE_LIMIT_WINDOW_S: seconds('RATE_LIMIT_WINDOW_S', 1, 86400).prefault('3600'),
  REPORT_RATE_LIMIT_MAX: wholeNumber('REPORT_RATE_LIMIT_MAX', 1, 10000).prefault('5'),
  CACHE_MAX_MB: wholeNumber('CACHE_MAX_MB', 1, 4096).prefault('64'),
  // How long chosen endpoints' answers stay fresh, in place of the endpoint table's time; that each
  // path is an endpoint is checked beside the table (checkTtlOverrides), since config imports no other folder.
  CACHE_TTL_OVERRIDES: ttlOverrides.prefault(''),
  TRUST_PROXY: trustProxy.prefault('false'),
  DATA_DIR: z.string().trim().min(1).prefault('./data'),
  // Unset means the operator endpoints (/admin/*) do not exist at all.
  ADMIN_TOKEN: z.string().trim().min(24, 'ADMIN_TOKEN must be at least 24 characters (e.g. openssl rand -hex 24)').optional(),
  // Unset: every instance keeps its shared things to itself (src/stores/index.ts picks them).
  REDIS_URL: redisUrl.optional(),
  // The service's public origin (e.g. https://api.example): links in pages, feeds, the export and
  // /openapi.json use it instead of the request's Host, which a client can forge.
  PUBLIC_URL: z.string().trim().pipe(origin).optional(),
  // How long an answer is served past its freshness, named as RFC 5861 names the two cases: while one
  // refresh runs (counted from the end of its TTL), and when the site fails (counted from its fetch: the
  // last good answers, kept in DATA_DIR, at most ANSWER_STORE_MAX_MB).
  STALE_WHILE_REVALIDATE_S: seconds('STALE_WHILE_REVALIDATE_S', 0, 604800).prefault('86400'),
  STALE_IF_ERROR_S: seconds('STALE_IF_ERROR_S', 0, 31536000).prefault('604800'),
  ANSWER_STORE_MAX_MB: wholeNumber('ANSWER_STORE_MAX_MB', 1, 1048576).prefault('512'),
  // The catalog crawler behind /export/* and /catalog/search?source=catalog.
  CRAWL_ENABLED: z
    .enum(['true', 'false'], { error: 'CRAWL_ENABLED must be true or false' })
    .prefault('true')
    .transform((text) => text === 'true'),
  CRAWL_INTERVAL_S: seconds('CRAWL_INTERVAL_S', 0, 3600).prefault('3'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).prefault('info'),
});

export type Config = z.infer<typeof ConfigSchema>;

/** Each variable's default as the environment would give it ('' for one unset by default), read from the schema, in its order. */
export function writtenDefaults(): Record<keyof Config, string> {
  const { properties } = z.toJSONSchema(ConfigSchema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<keyof Config, { default?: string }>;
  };
  return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, property.default ?? ''])) as Record<
    keyof Config,
    string
  >;
}

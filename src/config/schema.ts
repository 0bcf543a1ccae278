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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

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
    return text.split(',').map((part) => part.trim()).filter(Boolean);
  });

export const ConfigSchema = z.object({
  PORT: wholeNumber('PORT', 0, 65535).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  UPSTREAM_BASE_URLS: z
    .string()
    .default('https://anichin.cafe')
    .transform((text) => text.split(',').map((part) => part.trim()).filter(Boolean))
    .pipe(z.array(origin).min(1, 'UPSTREAM_BASE_URLS needs at least one origin')),
  UPSTREAM_SERIES_PATH: z
    .string()
    .trim()
    .regex(/^\/?[a-z0-9][a-z0-9-]*\/?$/i, 'UPSTREAM_SERIES_PATH must be one path segment such as /seri/ or /anime/')
    .transform((text) => `/${text.replace(/^\/|\/$/g, '')}/`)
    .default('/seri/'),
  UPSTREAM_TIMEOUT_MS: wholeNumber('UPSTREAM_TIMEOUT_MS', 100, 120000).default(10000),
  RATE_LIMIT_MAX: wholeNumber('RATE_LIMIT_MAX', 1, 1000000).default(50),
  RATE_LIMIT_WINDOW_MS: wholeNumber('RATE_LIMIT_WINDOW_MS', 1000, 86400000).default(3600000),
  REPORT_RATE_LIMIT_MAX: wholeNumber('REPORT_RATE_LIMIT_MAX', 1, 10000).default(5),
  TRUST_PROXY: trustProxy.default(false),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
});

export type Config = z.infer<typeof ConfigSchema>;

import { z } from 'zod';
import { isBlank } from './blank.js';

// Request parameters: the query and the path. Raw query values arrive as strings, or arrays when
// repeated; the schemas accept only the exact textual forms a person would type, so "1e9", "2abc"
// or a repeated page are refused.

/** A broken rule: the message a person reads, and the rule's short name for `details`. */
export type Issue = { message: string; rule: string };

/** A parameter read by `read` from its one raw value; a repeated parameter is refused. */
export function queryParam<T>(field: string, read: (raw: string | undefined) => T | Issue) {
  return z
    .unknown()
    .optional()
    .transform((raw, ctx): T => {
      const result = Array.isArray(raw)
        ? { message: `${field} must be given once`, rule: 'single value' }
        : read(typeof raw === 'string' ? raw : undefined);
      if (isIssue(result)) {
        ctx.addIssue({ code: 'custom', message: result.message, params: { rule: result.rule } });
        return z.NEVER;
      }
      return result;
    });
}

function isIssue(value: unknown): value is Issue {
  return typeof value === 'object' && value !== null && 'rule' in value && 'message' in value;
}

const PAGE_MAX = 500;
const SEARCH_QUERY_MAX = 100;

export const pageParam = queryParam('page', (raw) => {
  if (raw === undefined) return 1;
  const page = /^\d{1,4}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  return page >= 1 && page <= PAGE_MAX
    ? page
    : { message: `page must be a whole number from 1 to ${PAGE_MAX}`, rule: `integer 1-${PAGE_MAX}` };
}).meta({
  description: `Page number, a whole number from 1 to ${PAGE_MAX} (default 1)`,
  type: 'integer',
  minimum: 1,
  maximum: PAGE_MAX,
  default: 1,
});

const searchTerm = queryParam('q', (raw) => {
  if (raw === undefined) return { message: 'q is required: the text to search for', rule: 'required' };
  // The upstream search ignores case and extra spaces, so the normalised form is what we search,
  // cache and echo back as `query`.
  const text = raw.trim().replace(/\s+/g, ' ').toLowerCase();
  if (isBlank(text)) return { message: 'q must not be blank', rule: 'not blank' };
  // Counted in code points so that an emoji is one character, as everywhere else in the API.
  if ([...text].length > SEARCH_QUERY_MAX)
    return {
      message: `q must be at most ${SEARCH_QUERY_MAX} characters after trimming`,
      rule: `max ${SEARCH_QUERY_MAX} characters`,
    };
  return text;
}).meta({
  description: `Search text, 1 to ${SEARCH_QUERY_MAX} characters after trimming (required); searched and echoed in lower case with single spaces`,
  type: 'string',
  minLength: 1,
  maxLength: SEARCH_QUERY_MAX,
});

export const SLUG_MAX = 200;
// What a WordPress slug may hold once percent-decoded: ASCII lower-case letters, digits and
// hyphens, and any other letter or mark (a percent-encoded UTF-8 slug such as `l%c2%b2studio`).
const SLUG_CHARACTERS = /^(?:[a-z0-9-]|(?!\p{ASCII})[\p{L}\p{M}\p{N}\p{S}])+$/u;

/**
 * A path parameter naming an upstream slug, as Express hands it over (percent-decoded). It is kept
 * decoded (the `slug` fields of our answers are decoded too) and measured as the upstream writes it.
 */
export const slugParam = (field: string, what: string) =>
  queryParam(field, (raw) => {
    const rule = {
      message: `${field} must be the upstream's slug of the ${what}: lower-case letters, digits and hyphens (or percent-encoded UTF-8), 1 to ${SLUG_MAX} characters`,
      rule: 'slug',
    };
    return raw !== undefined && isUpstreamSlug(raw) ? raw : rule;
  }).meta({
    description: `The ${what}'s slug as the upstream writes it (the \`slug\` field of our answers): lower-case letters, digits, hyphens, percent-encoded UTF-8; 1 to ${SLUG_MAX} characters`,
    type: 'string',
    minLength: 1,
    maxLength: SLUG_MAX,
    pattern: '^(?:[a-z0-9-]|%[0-9a-fA-F]{2})+$',
  });

/** Whether a decoded text is a slug the upstream could have: the contract's characters, 1 to SLUG_MAX once encoded. */
export function isUpstreamSlug(text: string): boolean {
  return SLUG_CHARACTERS.test(text) && upstreamSlug(text).length <= SLUG_MAX;
}

/** A decoded slug as it stands in an upstream URL: percent-encoded with lower-case hex, as WordPress stores it. */
export function upstreamSlug(slug: string): string {
  return encodeURIComponent(slug).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
}

/**
 * One of `values`, case-insensitive; absent or empty is `absent` (null: as the site's form sends
 * "All"). `what` opens the description, `absentMeans` ends it.
 */
export function choiceParam<const Value extends string, const Absent extends Value | null = null>(
  field: string,
  values: readonly Value[],
  what: string,
  { absent = null as Absent, absentMeans = 'absent for all' }: { absent?: Absent; absentMeans?: string } = {},
) {
  return queryParam(field, (raw): Value | Absent | Issue => {
    const text = raw?.trim().toLowerCase().replace(/\s+/g, ' ') ?? '';
    if (text === '') return absent;
    return (
      values.find((value) => value === text) ?? {
        message: `${field} must be one of: ${values.join(', ')}`,
        rule: `one of: ${values.join(', ')}`,
      }
    );
  }).meta({
    description: `${what}: one of ${values.join(', ')}; ${absentMeans}`,
    type: 'string',
    enum: [...values],
    ...(absent === null ? {} : { default: absent }),
  });
}

/** Where a search looks: the site's own search (titles only), or this service's copy of the catalog (every name). */
const SEARCH_SOURCES = ['site', 'catalog'] as const;

const searchSource = choiceParam('source', SEARCH_SOURCES, 'Where to search', {
  absent: 'site',
  absentMeans:
    "absent is site. site: the site's own search (main titles only, 10 a page); catalog: this service's copy of the whole catalog (every title and alternative title: Chinese, pinyin, English, Indonesian; case, accents, width, word prefixes and one typo per word forgiven; best match first, 20 a page)",
});

export const NoParams = z.object({});
export const NoQuery = z.object({});
export const PageQuery = z.object({ page: pageParam });
export const SearchQuery = z.object({ q: searchTerm, page: pageParam, source: searchSource });

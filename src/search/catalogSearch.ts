import { createHash } from 'node:crypto';
import type { CatalogAnswer, NoSideEffects } from '../catalog/answer.js';
import type { AnswerCache } from '../catalog/cache.js';
import type { AnyEndpoint } from '../catalog/endpoints/index.js';
import { cacheKey, type CatalogResult } from '../catalog/answerLifecycle.js';
import type { CatalogService } from '../catalog/service.js';
import type { Pagination, SearchData } from '../contract/schemas.js';
import { catalogNotReady } from '../crawler/errors.js';
import { PagePastEndError } from '../parsers/errors.js';
import { TitleIndex, type TitledSeries } from './titleIndex.js';

/** What the title search reads of the local catalog (the crawler's LocalCatalog gives it). */
export interface TitleFeed {
  /** Every held entry once, then every change, on every instance; returns the unsubscribe function. */
  onChange(listener: (change: { kind: 'upsert'; entry: TitledSeries } | { kind: 'remove'; slug: string }) => void): () => void;
  readiness(): { enabled: boolean; complete: boolean };
}

export interface CatalogTitleSearchOptions {
  /** The upstream origin the catalog is read from (the one in use): the answers' `meta.source`. */
  source: () => string;
  now: () => number;
  /** How long an answer may be served from the cache; a change of the index gives later searches another key anyway. */
  ttlSeconds: number;
}

/**
 * `/catalog/search?source=catalog`: the local catalog's title index, answered in the same envelope
 * as every other /catalog answer and cached on the same path. An answer depends only on the query,
 * the page and the index as it is, so its cache key carries the index's version (`cacheKeySuffix`):
 * a repeated search is a hit until the catalog changes, and never a hit after.
 */
export interface CatalogTitleSearch {
  /** Appended to the search's cache key. Throws CatalogNotReadyError while the crawler is off or has read nothing. */
  cacheKeySuffix(): string;
  /** The answer's bytes, ETag and date (a miss). Throws CatalogNotReadyError as above. */
  answer(query: string, page: number): CatalogAnswer;
  /** How many series the index holds. */
  readonly size: number;
  /** Stops following the catalog. */
  close(): void;
}

export function createCatalogTitleSearch(feed: TitleFeed, { source, now, ttlSeconds }: CatalogTitleSearchOptions): CatalogTitleSearch {
  const index = new TitleIndex();
  const unsubscribe = feed.onChange((change) => {
    if (change.kind === 'upsert') index.upsert(change.entry);
    else index.remove(change.slug);
  });

  /** The crawler's state, or the refusal the export gives too: turned off, or nothing read yet. */
  function readyState(): { complete: boolean } {
    const state = feed.readiness();
    const refusal = catalogNotReady(state.enabled, index.size);
    if (refusal !== null) throw refusal;
    return state;
  }

  // Built once per state, not per hit: every cached search asks for it.
  let suffix = { version: -1, complete: false, text: '' };

  return {
    cacheKeySuffix() {
      const { complete } = readyState();
      if (suffix.version !== index.version || suffix.complete !== complete) {
        suffix = { version: index.version, complete, text: `#titles-v${index.version}${complete ? '' : '-incomplete'}` };
      }
      return suffix.text;
    },
    answer(query, page) {
      const { complete } = readyState();
      const { results, pagination } = index.search(query, page);
      // Past the last page (page 1 always is one, if empty), 404 as the site's search answers.
      if (page > 1 && results.length === 0) throw new PagePastEndError('search', page);
      const data: SearchData = { query, results };
      const content = JSON.stringify({ data, pagination: pagination satisfies Pagination });
      const fetchedAt = now();
      const meta = JSON.stringify({ source: source(), fetchedAt: new Date(fetchedAt).toISOString(), catalogComplete: complete });
      return {
        body: Buffer.from(`{"status":"success",${content.slice(1, -1)},"meta":${meta}}`),
        // Over what the client reads, so an unchanged answer revalidates with 304 after the index changed elsewhere.
        etag: `W/"${createHash('sha1').update(content).update(String(complete)).digest('base64url')}"`,
        fetchedAt,
        ttlSeconds,
      };
    },
    get size() {
      return index.size;
    },
    close: unsubscribe,
  };
}

/** Whether a validated catalog request is a search of the local catalog. */
function isCatalogSearch(endpoint: AnyEndpoint, input: Record<string, unknown>): input is { q: string; page: number; source: 'catalog' } {
  return endpoint.path === '/catalog/search' && input.source === 'catalog';
}

/**
 * The catalog service with `source=catalog` searches answered by the title search instead of the
 * upstream, through the same calls (`answer`, `fetch`), the same answer cache and the same writer.
 * Such an answer is held while fresh only (a stale one is searched again, which costs no upstream
 * request). A refusal (crawler off or nothing read) is thrown by a search's fetch only: a lookup
 * finds nothing held, and the counted request gets the refusal.
 */
export function withTitleSearch(catalog: CatalogService, titleSearch: CatalogTitleSearch, cache: AnswerCache): CatalogService {
  // The key of a validated input, kept while the input lives and the index stays as it was: the
  // door keeps one input per URL it answered, so a repeated search builds no key.
  const keys = new WeakMap<Record<string, unknown>, { suffix: string; key: string }>();
  const keyOf = (endpoint: AnyEndpoint, input: Record<string, unknown>) => {
    const suffix = titleSearch.cacheKeySuffix();
    const kept = keys.get(input);
    if (kept?.suffix === suffix) return kept.key;
    const key = `${cacheKey(endpoint, input)}${suffix}`;
    keys.set(input, { suffix, key });
    return key;
  };
  /** The fresh cached answer of a local-catalog search; undefined on a miss or a refusal. It starts nothing. */
  const held = (endpoint: AnyEndpoint, input: Record<string, unknown>): CatalogResult | undefined => {
    let key: string;
    try {
      key = keyOf(endpoint, input);
    } catch {
      return undefined;
    }
    const found = cache.lookup(key);
    return found?.freshness === 'fresh' ? { answer: found.answer, cacheStatus: 'HIT' } : undefined;
  };
  const search = async (endpoint: AnyEndpoint, input: { q: string; page: number }): Promise<CatalogResult> => {
    const answer = await cache.load(keyOf(endpoint, input), async () => titleSearch.answer(input.q, input.page));
    return { answer, cacheStatus: 'MISS' };
  };

  function answer(endpoint: AnyEndpoint, input: Record<string, unknown>, options: NoSideEffects): CatalogResult | undefined;
  function answer(endpoint: AnyEndpoint, input: Record<string, unknown>): CatalogResult | Promise<CatalogResult>;
  function answer(
    endpoint: AnyEndpoint,
    input: Record<string, unknown>,
    options?: NoSideEffects,
  ): CatalogResult | Promise<CatalogResult> | undefined {
    if (!isCatalogSearch(endpoint, input))
      return options === undefined ? catalog.answer(endpoint, input) : catalog.answer(endpoint, input, options);
    return held(endpoint, input) ?? (options === undefined ? search(endpoint, input) : undefined);
  }

  return {
    answer,
    fetch: (endpoint, input, newerThan, priority) =>
      isCatalogSearch(endpoint, input) ? search(endpoint, input) : catalog.fetch(endpoint, input, newerThan, priority),
    pathLookup: (endpoint) => catalog.pathLookup(endpoint),
    lastGood: () => catalog.lastGood(),
  };
}

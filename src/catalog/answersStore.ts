import type { CatalogAnswer } from './answer.js';

/** The answer cache's level shared by instances, under the local LRU (src/catalog/cache.ts). */
export interface SharedAnswers {
  /**
   * The answer of `key`: one another instance stored that may still be served (fetched after
   * `newerThan`, for a refresh of an answer of that age), else `fetchHere()`'s, fetched by one
   * instance at a time. The caller has its outcome within the page deadline, or `onGiveUp()`'s error.
   */
  load(key: string, fetchHere: () => Promise<CatalogAnswer>, options: { newerThan?: number; onGiveUp(): Error }): Promise<CatalogAnswer>;
}

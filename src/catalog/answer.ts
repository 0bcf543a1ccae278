import type { CachedAnswer } from './cache.js';

/** An answer plus what the upstream did to produce it (logged on a miss). */
export interface CatalogAnswer extends CachedAnswer {
  upstream: { url: string; status: number; attempts: number; durationMs: number };
}

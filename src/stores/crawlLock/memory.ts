import type { CrawlLock } from '../../crawler/crawlLock.js';

/** An instance without REDIS_URL shares its catalog with no one: it always crawls. */
export const createSoleCrawlLock = (): CrawlLock => ({ hold: async () => true, release: async () => undefined });

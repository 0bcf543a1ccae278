/**
 * The local catalog cannot answer: the crawler is turned off (CRAWL_ENABLED=false), or it has read
 * no series yet. The export and the title search over the local catalog answer it as 503.
 */
export class CatalogNotReadyError extends Error {
  constructor(
    readonly reason: 'disabled' | 'empty',
    readonly retryAfterSeconds: number,
  ) {
    super(reason === 'disabled' ? 'The catalog crawler is turned off on this service' : 'The catalog crawler has read no series yet');
    this.name = 'CatalogNotReadyError';
  }
}

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

/** Retry-After: a crawler turned off stays off a while; an empty catalog fills within seconds of the first pass. */
const NOT_READY_RETRY_S = { disabled: 3600, empty: 30 } as const;

/** Why the local catalog's answers (the export, the title search) cannot be given now; null when they can. */
export function catalogNotReady(enabled: boolean, held: number): CatalogNotReadyError | null {
  if (!enabled) return new CatalogNotReadyError('disabled', NOT_READY_RETRY_S.disabled);
  return held === 0 ? new CatalogNotReadyError('empty', NOT_READY_RETRY_S.empty) : null;
}

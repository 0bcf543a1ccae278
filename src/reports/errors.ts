/** How soon a report refused for a failing disk is worth sending again. */
const RETRY_AFTER_S = 60;

/**
 * A report that could not be stored (DATA_DIR full or failing): refused as 503, nothing kept, so
 * that no one is told a report was taken that is not on disk.
 */
export class ReportNotStoredError extends Error {
  readonly retryAfterSeconds = RETRY_AFTER_S;

  constructor(cause: unknown) {
    super('The report could not be stored', { cause });
    this.name = 'ReportNotStoredError';
  }
}

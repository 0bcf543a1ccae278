import type { Pagination } from '../contract/schemas.js';

/** What every page parser returns: the endpoint's data, its pagination, and the optional parts it could not find. */
export interface ParsedPage<T> {
  data: T;
  pagination: Pagination | null;
  /** Optional blocks that were absent (e.g. "ranking.weekly"); logged by the service, never an error. */
  missing: string[];
}

import { browseEndpoints } from './browse.js';
import { listEndpoints } from './lists.js';
import { seriesEndpoints } from './series.js';
import { ConfigError } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import type { Endpoint } from './types.js';

/**
 * The endpoint table, one file per group: everything the routes, the validation, the cache and
 * the API reference read. The order is the order of the docs and the landing page.
 */
export const endpoints = [...listEndpoints, ...seriesEndpoints, ...browseEndpoints] as const;

export type AnyEndpoint = (typeof endpoints)[number];

/**
 * The endpoints the Report Center's drop-down names one by one; reports about any other endpoint
 * are filed under "Lainnya / Tidak spesifik", so the form keeps its eight options.
 */
export const REPORT_CENTER_PATHS: readonly string[] = listEndpoints.map((entry) => entry.path);

/** How long an endpoint's answers stay fresh on this instance, in seconds: its CACHE_TTL_OVERRIDES entry, else the table's. */
export const freshSeconds = (endpoint: Pick<Endpoint, 'path' | 'ttlSeconds'>, config: Pick<Config, 'CACHE_TTL_OVERRIDES'>): number =>
  config.CACHE_TTL_OVERRIDES[endpoint.path] ?? endpoint.ttlSeconds;

/**
 * Stops the start on a CACHE_TTL_OVERRIDES entry that names no endpoint. The config checks the
 * entries' form; only here, beside the table, is it known which paths exist.
 */
export function checkTtlOverrides(config: Pick<Config, 'CACHE_TTL_OVERRIDES'>): void {
  const paths: readonly string[] = endpoints.map((endpoint) => endpoint.path);
  const unknown = Object.keys(config.CACHE_TTL_OVERRIDES).filter((path) => !paths.includes(path));
  if (unknown.length > 0)
    throw new ConfigError(
      `Invalid configuration:\n  CACHE_TTL_OVERRIDES: ${unknown.join(', ')} ${unknown.length === 1 ? 'is no endpoint' : 'are no endpoints'}; the endpoints are ${paths.join(', ')}`,
    );
}

import { browseEndpoints } from './browse.js';
import { listEndpoints } from './lists.js';
import { seriesEndpoints } from './series.js';

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

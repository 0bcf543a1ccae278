import { endpoints, freshSeconds } from '../catalog/endpoints/index.js';
import { exampleFor } from '../openapi/examples/index.js';
import type { Config } from '../config/schema.js';
import { formatDuration } from './duration.js';
import { endpointText } from './endpointText.js';

// What the landing page and the API reference both state, read from the configuration and the
// endpoint table, so the pages always tell the limits and cache times the server applies.

interface EndpointSummary {
  path: string;
  /** The anchor of its section on /docs. */
  anchor: string;
  summary: string;
  /** The endpoint with its example query, ready to open. */
  tryUrl: string;
  freshFor: string;
}

export interface ServiceFacts {
  rateLimit: { max: number; window: string; reportMax: number };
  cache: { staleMax: string; keptFor: string };
  endpoints: EndpointSummary[];
}

export const anchorOf = (path: string) => path.replace(/^\//, '').replace(/[{}]/g, '').replaceAll('/', '-');

/** The request URL for `parameters`: those named in the path template (`{slug}`) fill it, the rest form the query. */
export function urlWithParameters(path: string, parameters: Record<string, string>): string {
  const query: Record<string, string> = {};
  let url = path;
  for (const [name, value] of Object.entries(parameters)) {
    if (url.includes(`{${name}}`)) url = url.replace(`{${name}}`, encodeURIComponent(value));
    else query[name] = value;
  }
  const search = new URLSearchParams(query).toString().replaceAll('+', '%20');
  return search ? `${url}?${search}` : url;
}

export function serviceFacts(config: Config): ServiceFacts {
  return {
    rateLimit: {
      max: config.RATE_LIMIT_MAX,
      window: formatDuration(config.RATE_LIMIT_WINDOW_S),
      reportMax: config.REPORT_RATE_LIMIT_MAX,
    },
    cache: { staleMax: formatDuration(config.STALE_WHILE_REVALIDATE_S), keptFor: formatDuration(config.STALE_IF_ERROR_S) },
    endpoints: endpoints.map((endpoint) => ({
      path: endpoint.path,
      anchor: anchorOf(endpoint.path),
      summary: endpointText(endpoint.path).summary,
      tryUrl: urlWithParameters(endpoint.path, exampleFor(endpoint.path).parameters),
      freshFor: formatDuration(freshSeconds(endpoint, config)),
    })),
  };
}

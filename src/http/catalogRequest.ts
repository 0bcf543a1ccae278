import { parse as parseQueryString } from 'node:querystring';
import { match } from 'path-to-regexp';
import { endpoints, type AnyEndpoint } from '../catalog/endpoints/index.js';
import { InvalidParameterError, MalformedPathError, MethodNotAllowedError } from './errors.js';
import { errorDetails } from './validation.js';

/** The methods every catalog endpoint takes. */
export const CATALOG_METHODS = 'GET, HEAD';

/** A catalog request resolved: the endpoint and its validated input, or why it is refused. */
export type CatalogRequest =
  | { endpoint: AnyEndpoint; input: Record<string, unknown>; error?: undefined }
  | { endpoint: AnyEndpoint | undefined; input?: undefined; error: Error };

/** Express's form of a table path: "/catalog/series/{slug}" → "/catalog/series/:slug". */
export const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

// Compiled as Express's router compiles a route (path-to-regexp, case-insensitive, one optional
// trailing slash, parameters percent-decoded), so a path means the same here as it did there.
const matchers = endpoints.map((endpoint) => ({
  endpoint,
  match: match<Record<string, string>>(expressPath(endpoint.path), { sensitive: false }),
}));

type Matched = { endpoint: AnyEndpoint; params: Record<string, string> };

/** The endpoint `pathname` names and its decoded path parameters; a MalformedPathError when a parameter does not decode. */
function matchPath(pathname: string): Matched | MalformedPathError | undefined {
  for (const { endpoint, match } of matchers) {
    try {
      const matched = match(pathname);
      if (matched !== false) return { endpoint, params: matched.params };
    } catch (error) {
      return new MalformedPathError((error as Error).message);
    }
  }
  return undefined;
}

/**
 * The one resolver of a catalog request (the door's catalog resource): the endpoint of `pathname`,
 * its path parameters, the query (node:querystring, Express's 'simple' parser) and their validation
 * by the endpoint's schema. Undefined when no endpoint has the path.
 */
export function resolveCatalogRequest(method: string, pathname: string, rawQuery: string): CatalogRequest | undefined {
  const matched = matchPath(pathname);
  if (matched instanceof MalformedPathError) return { endpoint: undefined, error: matched };
  if (matched === undefined) return undefined;
  const { endpoint, params } = matched;
  if (method !== 'GET' && method !== 'HEAD') return { endpoint, error: new MethodNotAllowedError(method, endpoint.path, CATALOG_METHODS) };
  // Path parameters last, so that a query parameter of the same name cannot stand in for one.
  const input = endpoint.input.safeParse({ ...parseQueryString(rawQuery), ...params });
  return input.success
    ? { endpoint, input: input.data }
    : { endpoint, error: new InvalidParameterError(errorDetails(input.error, 'query')) };
}

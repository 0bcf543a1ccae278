import { match } from 'path-to-regexp';
import { isFeedFormat, type FeedFormat } from '../feeds/model.js';
import { feeds, type FeedDefinition } from '../feeds/table.js';
import { CATALOG_METHODS, expressPath } from './catalogRequest.js';
import { InvalidParameterError, MalformedPathError, MethodNotAllowedError } from './errors.js';
import { errorDetails } from './validation.js';

/** A feed request resolved: the feed, its format and the input of the catalog endpoint it is built from, or why it is refused. */
export type FeedRequest =
  | { feed: FeedDefinition; format: FeedFormat; input: Record<string, unknown>; error?: undefined }
  | { feed: FeedDefinition | undefined; error: Error };

// The extension is a parameter of its own, so "/feeds/series/{slug}" is matched as "/feeds/series/:slug.:format",
// compiled as the catalog's paths are (catalogRequest.ts): case-insensitive, parameters percent-decoded.
const matchers = feeds.map((feed) => ({
  feed,
  match: match<Record<string, string>>(`${expressPath(feed.path)}.:format`, { sensitive: false }),
}));

/**
 * The feed of `pathname` ("/feeds/series/x.atom") and its validated input; undefined when no feed
 * has the path or its extension is none of the formats (a 404 like any unknown path).
 */
export function resolveFeedRequest(method: string, pathname: string): FeedRequest | undefined {
  for (const { feed, match } of matchers) {
    let matched;
    try {
      matched = match(pathname);
    } catch (error) {
      return { feed, error: new MalformedPathError((error as Error).message) };
    }
    if (matched === false) continue;
    const { format, ...params } = matched.params;
    if (format === undefined || !isFeedFormat(format)) return undefined;
    if (method !== 'GET' && method !== 'HEAD')
      return { feed, error: new MethodNotAllowedError(method, `${feed.path}.${format}`, CATALOG_METHODS) };
    const input = feed.endpoint.input.safeParse(params);
    return input.success
      ? { feed, format, input: input.data }
      : { feed, error: new InvalidParameterError(errorDetails(input.error, 'path')) };
  }
  return undefined;
}

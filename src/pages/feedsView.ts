import { freshSeconds } from '../catalog/endpoints/index.js';
import type { Config } from '../config/schema.js';
import type { ErrorCode } from '../contract/schemas.js';
import { catalogErrorCodes, ERROR_CODES } from '../contract/errorCodes.js';
import { FEED_FORMATS, type FeedFormat } from '../feeds/model.js';
import { feeds } from '../feeds/table.js';
import { feedExample } from '../openapi/examples/index.js';
import { formatDuration } from './duration.js';
import { endpointText } from './endpointText.js';
import { anchorOf, urlWithParameters } from './serviceFacts.js';

interface FeedLinkView {
  format: FeedFormat;
  /** "Atom 1.0", "RSS 2.0", "JSON Feed 1.1". */
  name: string;
  mediaType: string;
  /** The feed with its example parameters, ready to open. */
  url: string;
}

export interface FeedDocView {
  /** The path with its extensions, e.g. "/feeds/series/{slug}.{atom,rss,json}". */
  path: string;
  anchor: string;
  summary: string;
  description: string;
  freshFor: string;
  links: FeedLinkView[];
  errors: { status: number; code: ErrorCode }[];
}

const FORMAT_LIST = Object.keys(FEED_FORMATS) as FeedFormat[];

/** Every feed of the feed table, for the landing page and the API reference. */
export function feedViews(config: Config): FeedDocView[] {
  return feeds.map((feed) => ({
    path: `${feed.path}.{${FORMAT_LIST.join(',')}}`,
    anchor: anchorOf(feed.path),
    ...endpointText(feed.path),
    freshFor: formatDuration(freshSeconds(feed.endpoint, config)),
    links: FORMAT_LIST.map((format) => ({
      format,
      name: FEED_FORMATS[format].name,
      mediaType: FEED_FORMATS[format].mediaType.split(';')[0]!,
      url: urlWithParameters(`${feed.path}.${format}`, feedExample(feed)),
    })),
    errors: catalogErrorCodes(Object.keys(feed.params.shape).length > 0).map((code) => ({ status: ERROR_CODES[code].status, code })),
  }));
}

/** The landing page's `<link rel="alternate">`: the first feed (the latest releases) in Atom and RSS, which feed readers discover. */
export function feedDiscoveryLinks(config: Config): { type: string; title: string; href: string }[] {
  const [latest] = feedViews(config);
  return (latest?.links ?? [])
    .filter((link) => link.format !== 'json')
    .map((link) => ({ type: link.mediaType, title: `Episode terbaru (${link.name})`, href: link.url }));
}

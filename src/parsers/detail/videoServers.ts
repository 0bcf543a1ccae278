import { load } from 'cheerio/slim';
import type { Cheerio, CheerioAPI } from 'cheerio/slim';
import type { AnyNode } from 'domhandler';
import type { VideoServer } from '../../contract/series.js';
import { within } from '../scope.js';
import { cleanText } from '../text.js';
import { absoluteUrl } from '../url.js';

/**
 * The video servers of an episode: each option of `select.mirror` holds its player as base64 of an
 * `<iframe … src=URL>` tag, as the tag itself, or as a plain link (a sister site links each server's
 * own page `{episode}/v/N/`, taken as it is). The placeholder option (empty value) is not a server.
 * The embed the page shows by default (`#pembed iframe`) comes first, as `Default`, when no option
 * names it.
 */
export function parseVideoServers($: CheerioAPI, scope: Cheerio<AnyNode>, pageUrl: string): VideoServer[] {
  const servers: VideoServer[] = [];
  for (const option of within(scope, 'select.mirror option').toArray()) {
    const url = embedUrl(option.attribs['value'] ?? '', pageUrl);
    const name = cleanText($(option).text());
    if (url !== null && name) servers.push({ name, url });
  }
  const shown = within(scope, '#pembed iframe, .player-embed iframe, #embed_holder iframe').first();
  const defaultUrl = absoluteUrl(shown.attr('src') ?? shown.attr('data-src'), pageUrl);
  if (defaultUrl !== null && !servers.some((server) => server.url === defaultUrl)) {
    servers.unshift({ name: 'Default', url: defaultUrl });
  }
  return servers;
}

/** The player URL of one option value: base64 of an iframe tag (the theme), the tag itself, or a link. */
function embedUrl(value: string, pageUrl: string): string | null {
  const raw = value.trim();
  if (!raw) return null;
  const decoded = /<iframe\b/i.test(raw) || /^(?:https?:)?\/\//i.test(raw) ? raw : decodeBase64(raw);
  // Base64 never decodes to an iframe tag by chance; a value that is no base64 of one may be a site path.
  const markup = /<iframe\b/i.test(decoded) || /^(?:https?:)?\/\//i.test(decoded) ? decoded : raw;
  // A real HTML parse of the small tag, so that quoting and entities (`&amp;`) come out right.
  const src = (/<iframe\b/i.test(markup) ? load(markup)('iframe').attr('src') : markup)?.trim() ?? '';
  // `//host/path` (protocol-relative) takes the page's scheme; `/path` is a page of the site.
  return /^(?:https?:)?\/\/|^\/[^/]/i.test(src) ? absoluteUrl(src, pageUrl) : null;
}

function decodeBase64(text: string): string {
  return /^[A-Za-z0-9+/=_-]+$/.test(text) ? Buffer.from(text, 'base64').toString('utf8') : '';
}

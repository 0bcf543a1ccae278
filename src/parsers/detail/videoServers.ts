import type { Cheerio, CheerioAPI } from 'cheerio/slim';
import type { AnyNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import type { VideoServer } from '../../contract/series.js';
import { allWithin, firstWithin } from '../scope.js';
import { absoluteUrl } from '../url.js';
import { elementText, firstMatch, hasAncestorWithin, hasClass } from '../walk.js';

/**
 * The video servers of an episode: each option of `select.mirror` holds its player as base64 of an
 * `<iframe … src=URL>` tag, as the tag itself, or as a plain link (a sister site links each server's
 * own page `{episode}/v/N/`, taken as it is). The placeholder option (empty value) is not a server.
 * The embed the page shows by default (`#pembed iframe`) comes first, as `Default`, when no option
 * names it.
 */
export function parseVideoServers($: CheerioAPI, scope: Cheerio<AnyNode>, pageUrl: string): VideoServer[] {
  const root = scope[0];
  if (root === undefined) return [];
  // `select.mirror option` and `#pembed iframe, .player-embed iframe, #embed_holder iframe` below the
  // scope, as walks rather than selector queries, which compile their selectors on every call (speed only).
  const servers: VideoServer[] = [];
  const mirror = (ancestor: Element) => ancestor.name === 'select' && hasClass(ancestor, 'mirror');
  for (const option of allWithin(scope, (el) => el.name === 'option' && hasAncestorWithin(el, root, mirror))) {
    const url = embedUrl(option.attribs['value'] ?? '', pageUrl);
    const name = elementText($, option);
    if (url !== null && name) servers.push({ name, url });
  }
  const player = (ancestor: Element) =>
    ancestor.attribs['id'] === 'pembed' || ancestor.attribs['id'] === 'embed_holder' || hasClass(ancestor, 'player-embed');
  const shown = firstWithin(scope, (el) => el.name === 'iframe' && hasAncestorWithin(el, root, player));
  const defaultUrl = absoluteUrl(shown?.attribs['src'] ?? shown?.attribs['data-src'], pageUrl);
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
  const tag = /<iframe\b/i.test(markup);
  const src = (tag ? firstMatch(parseDocument(markup), (el) => el.name === 'iframe')?.attribs['src'] : markup)?.trim() ?? '';
  // `//host/path` (protocol-relative) takes the page's scheme; `/path` is a page of the site.
  return /^(?:https?:)?\/\/|^\/[^/]/i.test(src) ? absoluteUrl(src, pageUrl) : null;
}

function decodeBase64(text: string): string {
  return /^[A-Za-z0-9+/=_-]+$/.test(text) ? Buffer.from(text, 'base64').toString('utf8') : '';
}

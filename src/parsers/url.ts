import type { Element } from 'domhandler';
import { withoutNonText } from './text.js';

/** Resolves `href` against the page it came from; null for empty, fragment-only, script or non-http links. */
export function absoluteUrl(href: string | null | undefined, base: string): string | null {
  return (plainPermalink(href) ?? plainRootRelativePermalink(href, base))?.url ?? resolveHttpUrl(href, base)?.href ?? null;
}

/**
 * `href` resolved against the page it came from, as a URL; null for empty, fragment-only, script
 * or non-http links. Characters that are not text are dropped first, as from any text of the site:
 * URL would otherwise keep them, percent-encoded, in the link and in the slug decoded from it.
 */
export function resolveHttpUrl(href: string | null | undefined, base: string): URL | null {
  const raw = href === null || href === undefined ? undefined : withoutNonText(href).trim();
  if (!raw || raw.startsWith('#') || /^javascript:/i.test(raw)) return null;
  try {
    // Speed only: an absolute link (what WordPress prints) is parsed without its base, which changes nothing.
    const url = /^https?:\/\//i.test(raw) ? new URL(raw) : new URL(raw, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Where a link points: its absolute URL and the slug (last path segment); null when it has neither.
 * One parse gives both (speed only).
 */
export function linkTarget(href: string | null | undefined, pageUrl: string): { url: string; slug: string } | null {
  const permalink = plainPermalink(href) ?? plainRootRelativePermalink(href, pageUrl);
  if (permalink !== null) return hasSlug(permalink) ? permalink : null;
  const url = resolveHttpUrl(href, pageUrl);
  const slug = url === null ? null : lastPathSegment(url.pathname);
  return url !== null && slug !== null ? { url: url.href, slug } : null;
}

// A path that URL prints as written: segments of letters, digits, `-`, `_` and `.` (none of them `.` or
// `..`, which URL would resolve), and perhaps a query of the same and `,`, `=`, `&` (a Photon image's
// `?resize=247,350`); the last segment, the slug, captured (none for the root). Its segments are
// matched lazily, so that the slug is the last one (an episode link has no other).
const PLAIN_PATH = String.raw`\/(?:(?:[\w-][\w.-]*\/)*?([\w-][\w.-]*)\/?)?(?:\?[\w.,=&-]*)?`;

// The theme's permalinks and images: an origin, then a plain path (`https://anichin.cafe/seri/soul-land/`).
// Speed only: URL would print such a link exactly as written whenever it prints the origin so
// (`isCanonicalOrigin` keeps that true, and is what correctness rests on); every other link is
// parsed. A character that is not text matches neither the path nor a canonical origin, so such a
// link goes through resolveHttpUrl, which drops it.
const PLAIN_PERMALINK = new RegExp(`^(https?:\\/\\/[^/?#]+)${PLAIN_PATH}$`);

/** A plain link: as written, and its slug (undefined for the site's root). */
interface PlainLink {
  url: string;
  slug: string | undefined;
}

function hasSlug(link: PlainLink): link is { url: string; slug: string } {
  return link.slug !== undefined;
}

function plainPermalink(href: string | null | undefined): PlainLink | null {
  const url = href?.trim() ?? '';
  const match = PLAIN_PERMALINK.exec(url);
  return match !== null && isCanonicalOrigin(match[1]!) ? { url, slug: match[2] } : null;
}

// The later snapshot writes the same permalinks root-relative (`/soul-land/`); against a page URL
// whose origin URL prints as written, the link is that origin plus the path (speed only, as above).
const PLAIN_ROOT_RELATIVE = new RegExp(`^${PLAIN_PATH}$`);
const PAGE_ORIGIN = /^https?:\/\/[^/?#]+/i;

function plainRootRelativePermalink(href: string | null | undefined, pageUrl: string): PlainLink | null {
  const path = href?.trim() ?? '';
  const match = PLAIN_ROOT_RELATIVE.exec(path);
  const origin = match === null ? null : PAGE_ORIGIN.exec(pageUrl)?.[0];
  return match !== null && origin !== undefined && origin !== null && isCanonicalOrigin(origin)
    ? { url: `${origin}${path}`, slug: match[1] }
    : null;
}

// URL's verdicts on the origins asked about last (speed only): a page's links share one, and its
// images a few more (Photon's i0–i3.wp.com). Newest first; a plain list, since a lookup by
// hash would first hash each new copy of the origin's text.
const CHECKED_ORIGINS: Array<{ origin: string; canonical: boolean }> = [];
const MAX_CHECKED_ORIGINS = 8;

/** Whether URL prints `origin` (scheme, user info, host, port) exactly as written: a lowercase host, no default port, nothing to escape. */
function isCanonicalOrigin(origin: string): boolean {
  for (const checked of CHECKED_ORIGINS) if (checked.origin === origin) return checked.canonical;
  const canonical = URL.canParse(`${origin}/`) && new URL(`${origin}/`).href === `${origin}/`;
  CHECKED_ORIGINS.unshift({ origin, canonical });
  if (CHECKED_ORIGINS.length > MAX_CHECKED_ORIGINS) CHECKED_ORIGINS.pop();
  return canonical;
}

/** Last non-empty path segment, percent-decoded; null when the path is the site root. */
export function slugFromUrl(url: string): string | null {
  try {
    return lastPathSegment(new URL(url).pathname);
  } catch {
    return null;
  }
}

function lastPathSegment(pathname: string): string | null {
  let end = pathname.length;
  while (end > 0 && pathname[end - 1] === '/') end--;
  const segment = pathname.slice(pathname.lastIndexOf('/', end - 1) + 1, end);
  return segment ? decodedPathSegment(segment) : null;
}

/** A path segment percent-decoded (`l%C2%B2studio` → `l²studio`); as it is when it is not valid percent-encoding. */
export function decodedPathSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    // A percent-encoded control character or noncharacter (`%01`) decodes to one.
    return withoutNonText(decodeURIComponent(segment));
  } catch {
    return segment;
  }
}

// Lazy-load plugins put a tiny stand-in in `src`: an inline data: URI, or a blank/lazy gif or svg,
// judged by its path alone (a query may name anything), which ends at the first `?` or `#`.
const PLACEHOLDER_IMAGE = /^\s*data:|^[^?#]*(?:lazy|placeholder|blank)[^/?#]*\.(?:gif|svg)(?:[?#]|\s*$)/i;

// Lazy-load variants of the theme family hold the real poster in data-src (lazysizes),
// data-lazy-src (WP Rocket) or data-cfsrc (Cloudflare); `src` may be only a placeholder.
const LAZY_ATTRIBUTES = ['data-src', 'data-lazy-src', 'data-cfsrc'] as const;

/** Every attribute `imageUrl` reads, for readers that keep only what they read. */
export const IMAGE_ATTRIBUTES: readonly string[] = [...LAZY_ATTRIBUTES, 'srcset', 'src'];

/** The real image URL of an `img` (its attributes are all it reads), absolute, or null when it only has placeholders. */
export function imageUrl(img: Pick<Element, 'attribs'> | undefined, pageUrl: string): string | null {
  if (img === undefined) return null;
  // In order of trust, each read only when those before it gave nothing (most images stop at the first).
  for (const name of LAZY_ATTRIBUTES) {
    const url = imageCandidateUrl(img.attribs[name], pageUrl);
    if (url !== null) return url;
  }
  const srcset = img.attribs['srcset'];
  // Cleaned before it is split: the srcset grammar splits on whitespace, which includes some control characters.
  return (
    (srcset && imageCandidateUrl(largestSrcsetCandidate(withoutNonText(srcset)), pageUrl)) || imageCandidateUrl(img.attribs['src'], pageUrl)
  );
}

/** One candidate URL of an image (an attribute, a CSS `url()`), absolute; null when it is empty, a placeholder or no http URL. */
export function imageCandidateUrl(value: string | undefined, pageUrl: string): string | null {
  const candidate = value === undefined ? '' : withoutNonText(value);
  return candidate === '' || PLACEHOLDER_IMAGE.test(candidate) ? null : absoluteUrl(candidate, pageUrl);
}

function largestSrcsetCandidate(srcset: string): string | undefined {
  const candidates = parseSrcset(srcset);
  let best = candidates[0];
  for (const candidate of candidates) {
    if (candidate.width !== null && (best?.width ?? -1) < candidate.width) best = candidate;
  }
  return best?.url;
}

// A srcset's separators (whitespace and commas) and a candidate's URL (a run without whitespace),
// read from a position (sticky) rather than one character test at a time.
const SRCSET_SEPARATORS = /[\s,]*/y;
const SRCSET_URL = /\S*/y;

// Follows the HTML srcset grammar instead of splitting on commas, because Photon URLs carry
// a comma inside the query (`?resize=247,350`).
function parseSrcset(srcset: string): { url: string; width: number | null }[] {
  const candidates: { url: string; width: number | null }[] = [];
  let pos = 0;
  while (pos < srcset.length) {
    SRCSET_SEPARATORS.lastIndex = pos;
    SRCSET_SEPARATORS.exec(srcset);
    pos = SRCSET_SEPARATORS.lastIndex;
    if (pos >= srcset.length) break;
    SRCSET_URL.lastIndex = pos;
    SRCSET_URL.exec(srcset);
    const end = SRCSET_URL.lastIndex;
    let url = srcset.slice(pos, end);
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
      pos = end;
    } else {
      const comma = srcset.indexOf(',', end);
      const stop = comma === -1 ? srcset.length : comma;
      descriptor = srcset.slice(end, stop).trim();
      pos = stop + 1;
    }
    const width = /^(\d+)w$/i.exec(descriptor);
    candidates.push({ url, width: width ? Number(width[1]) : null });
  }
  return candidates;
}

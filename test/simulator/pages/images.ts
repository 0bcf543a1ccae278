import type { PageContext } from './context.js';
import { attr } from './html.js';

/**
 * Poster markup styles seen on this theme family. Lazy styles keep the real URL in a data
 * attribute and put a placeholder in `src`, so a parser that reads only `src` gets the wrong image.
 */
export type ImageStyle =
  | 'src' // plain src
  | 'lazyload' // lazysizes: data: placeholder + data-src, noscript copy
  | 'lazy-gif' // lazysizes with the theme's lazy.gif placeholder
  | 'rocket' // WP Rocket: data: placeholder + data-lazy-src, noscript copy
  | 'litespeed' // LiteSpeed Cache: data-lazyloaded, base64 SVG placeholder + data-src, noscript copy
  | 'srcset' // src plus a two-width srcset
  | 'photon'; // Jetpack Photon CDN URL with ?resize=

const PLACEHOLDER = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%20247%20350'%3E%3C/svg%3E";
// LiteSpeed's placeholder is the poster's box as a base64 SVG.
const LITESPEED_PLACEHOLDER = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="247" height="350" viewBox="0 0 247 350"></svg>').toString('base64')}`;
const POSTER_CLASSES = 'ts-post-image wp-post-image attachment-medium size-medium';

export function imageStyleAt(ctx: PageContext, index: number): ImageStyle {
  const styles = ctx.variant.imageStyles;
  return styles[index % styles.length] ?? 'src';
}

/** The real image URL as the page carries it (the attribute a careful parser should end up with). */
export function posterUrl(ctx: PageContext, path: string, style: ImageStyle, index: number): string {
  if (style === 'photon') return `https://i${index % 4}.wp.com/${ctx.host}${path}?resize=247,350`;
  return `${ctx.origin}${path}`;
}

export interface ImageInput {
  readonly path: string;
  /** The `title` attribute; null prints `alt` alone, as the sister site's episode list does. */
  readonly title: string | null;
  readonly alt?: string;
  /** Position in its list; picks the style and the Photon shard. */
  readonly index: number;
  readonly width?: number;
  readonly height?: number;
  readonly extraClass?: string;
}

export function posterImg(ctx: PageContext, input: ImageInput): string {
  const style = imageStyleAt(ctx, input.index);
  const url = posterUrl(ctx, input.path, style, input.index);
  const classes = input.extraClass === undefined ? POSTER_CLASSES : `${POSTER_CLASSES} ${input.extraClass}`;
  const label = input.title === null ? `alt="${attr(input.alt ?? '')}"` : `title="${attr(input.title)}"`;
  const rest = `loading="lazy" itemprop="image" ${label} width="${input.width ?? 247}" height="${input.height ?? 350}"`;
  const plain = `<img src="${url}" class="${classes}" ${rest}>`;
  const noscript = `<noscript>${plain}</noscript>`;
  switch (style) {
    case 'src':
      return plain;
    case 'lazyload':
      return `<img src="${PLACEHOLDER}" data-src="${url}" class="lazyload ${classes}" ${rest}>${noscript}`;
    case 'lazy-gif':
      return `<img src="${ctx.origin}/wp-content/themes/animestream/assets/img/lazy.gif" data-src="${url}" class="lazyload ${classes}" ${rest}>${noscript}`;
    case 'rocket':
      return `<img src="${PLACEHOLDER}" data-lazy-src="${url}" class="${classes}" ${rest}>${noscript}`;
    case 'litespeed':
      return `<img data-lazyloaded="1" src="${LITESPEED_PLACEHOLDER}" data-src="${url}" class="${classes}" ${rest}>${noscript}`;
    case 'srcset': {
      const small = url.replace(/(\.\w+)$/, '-150x212$1');
      return `<img src="${url}" srcset="${url} 247w, ${small} 150w" sizes="(max-width: 247px) 100vw, 247px" class="${classes}" ${rest}>`;
    }
    case 'photon':
      return `<img src="${url}" data-recalc-dims="1" class="${classes}" ${rest}>`;
  }
}

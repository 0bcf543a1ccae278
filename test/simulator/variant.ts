import type { ImageStyle } from './pages/images.js';

/**
 * Two installs of the theme: `cafe` is anichin.cafe in 2026; `classic` is an older install with the
 * theme's default `/anime/` series path and localised headings. Parsers should handle both.
 */
export type VariantName = 'cafe' | 'classic';

export interface Variant {
  readonly name: VariantName;
  /** Path prefix of series pages; cards and widgets link there. */
  readonly seriesBase: '/seri/' | '/anime/';
  /** Tag of the home section headings (`div.releases > h3`). */
  readonly homeHeadingTag: 'h2' | 'h3';
  readonly headings: {
    readonly popularToday: string;
    readonly latestRelease: string;
    readonly recommendation: string;
    readonly ongoing: string;
    readonly seriesList: string;
    readonly searchNotFound: string;
  };
  /** Second class of the Popular Today `div.listupd` and the class of its inner wrapper. */
  readonly popularTodayList: { readonly listClass: 'normal' | 'popularslider'; readonly innerClass: 'excstf' | 'popconslide' };
  /** Older installs wrap the series list's filter form, cards and pager in `div.mrgn`. */
  readonly listWrapper: boolean;
  /** anichin.cafe leaves the quick filter's sub slot empty; other installs have a sub radio group. */
  readonly subFilter: boolean;
  /** Poster markup styles, rotated by card position. */
  readonly imageStyles: readonly ImageStyle[];
  /**
   * The episode page's sub label inside the type badge (`<span class="epx"> Donghua <span class="lg">Sub</span></span>`),
   * as seen on the real site, rather than beside it.
   */
  readonly episodeSubInsideType: boolean;
}

export const VARIANTS: Record<VariantName, Variant> = {
  cafe: {
    name: 'cafe',
    seriesBase: '/seri/',
    homeHeadingTag: 'h3',
    headings: {
      popularToday: 'Popular Today',
      latestRelease: 'Latest Release',
      recommendation: 'Recommendation',
      ongoing: 'Ongoing',
      seriesList: 'Anime Lists',
      searchNotFound: 'Sorry, but nothing matched your search terms. Please try again with some different keywords.',
    },
    popularTodayList: { listClass: 'normal', innerClass: 'excstf' },
    listWrapper: false,
    subFilter: false,
    imageStyles: ['src', 'lazyload', 'srcset', 'photon', 'lazy-gif', 'src', 'rocket'],
    episodeSubInsideType: true,
  },
  classic: {
    name: 'classic',
    seriesBase: '/anime/',
    homeHeadingTag: 'h2',
    headings: {
      popularToday: 'Populer Hari Ini',
      latestRelease: 'Rilisan Terbaru',
      recommendation: 'Rekomendasi',
      ongoing: 'Ongoing',
      seriesList: 'Daftar Anime',
      searchNotFound: 'Maaf, tidak ada yang cocok dengan kata kunci pencarian Anda. Silakan coba lagi dengan kata kunci lain.',
    },
    popularTodayList: { listClass: 'popularslider', innerClass: 'popconslide' },
    listWrapper: true,
    subFilter: true,
    imageStyles: ['rocket', 'src', 'rocket', 'photon', 'lazyload', 'rocket', 'srcset'],
    episodeSubInsideType: false,
  },
};

import type { Series } from './dataset.js';
import type { ImageStyle } from './pages/images.js';

/**
 * Theme profiles: installs of the Themesia "AnimeStream" theme the service must read, each with the
 * paths, labels and markup its real site has (research: upstream-structure.md §7).
 * - `cafe`: anichin.cafe in 2026 (today's site): series at `/seri/{slug}/`, absolute links.
 * - `classic`: an older install with the theme's default `/anime/` paths and some localised labels.
 * - `moe`: the later snapshot (anichin.moe 2026): series at `/{slug}/`, list at `/anime/`, links and
 *   canonical written relative, Indonesian info labels, `h3` episode lists, episode-post
 *   recommendations, a "First Episode" button to `#`, and a 670-episode series.
 * - `sister`: a sister site (luciferdonghua.in / donghuastream.org): series and list at `/anime/`,
 *   English labels plus Fansub / Producers, the episode title block after the player, server options
 *   that link to the site's own server pages, LiteSpeed lazy images. Like the real second sister
 *   site, its sidebar has no quick-filter form: only the series list page carries one.
 * A run picks one: the simulator's `variant` option, `SIM_PROFILE`, or `--profile` of the demo.
 */
export type VariantName = 'cafe' | 'classic' | 'moe' | 'sister';

export const VARIANT_NAMES: readonly VariantName[] = ['cafe', 'classic', 'moe', 'sister'];

/** Where a profile's series pages live: `/seri/{slug}/`, `/anime/{slug}/` or `/{slug}/`. */
export type SeriesBase = '/seri/' | '/anime/' | '/';

/** Labels of the series page's info rows (`.spe`) that the parsers map to fields. */
interface InfoLabels {
  readonly released: string;
  readonly duration: string;
  readonly country: string;
  readonly type: string;
  readonly episodes: string;
  readonly postedBy: string;
  readonly publishedAt: string;
  readonly updatedAt: string;
}

export interface Variant {
  readonly name: VariantName;
  /** Path prefix of series pages; cards and widgets link there. */
  readonly seriesBase: SeriesBase;
  /** The filterable series list; the quick-filter form submits there (without the trailing slash). */
  readonly listPath: '/seri/' | '/anime/';
  /** How links into the site are written: `https://host/slug/` or `/slug/` (canonical too). */
  readonly links: 'absolute' | 'relative';
  /** Whether every page's sidebar carries the quick-filter form (the series list page always does). */
  readonly sidebarQuickFilter: boolean;
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
  /** Labels of the home pager `div.hpage` (`a.l`, `a.r`). */
  readonly pagerLabels: { readonly previous: string; readonly next: string };
  /** Second class of the Popular Today `div.listupd` and the class of its inner wrapper. */
  readonly popularTodayList: { readonly listClass: 'normal' | 'popularslider'; readonly innerClass: 'excstf' | 'popconslide' };
  /** What the home Recommendation tabs list: series, or (later snapshot) each series' latest episode post. */
  readonly recommendationCards: 'series' | 'episode';
  /** Older installs wrap the series list's filter form, cards and pager in `div.mrgn`. */
  readonly listWrapper: boolean;
  /** anichin.cafe leaves the quick filter's sub slot empty; other installs have a sub radio group. */
  readonly subFilter: boolean;
  /** Poster markup styles, rotated by card position. */
  readonly imageStyles: readonly ImageStyle[];
  readonly infoLabels: InfoLabels;
  /** Info rows with no field of their own, printed before "Posted by"; parsers keep them in `otherInfo`. */
  readonly extraInfoRows: readonly (readonly [label: string, value: string])[];
  /** The series page's "First Episode" button: a link to the first episode, or `href="#"` with "Episode 1". */
  readonly firstEpisodeButton: 'link' | 'hash';
  /**
   * The episode page's sub label inside the type badge (`<span class="epx"> Donghua <span class="lg">Sub</span></span>`),
   * as seen on the real site, rather than beside it.
   */
  readonly episodeSubInsideType: boolean;
  /** Where the episode page's title block (`.item.meta`) sits: inside the player block, or after it. */
  readonly episodeTitleBlock: 'inside' | 'after';
  /** How the episode page's list titles its entries (`.playinfo > h3|h4`); the `h3` installs leave the link's `title` empty. */
  readonly episodeListHeading: 'h3' | 'h4';
  /** Whether the episode list's thumbnails repeat the entry's title (`img[title]`); the sister site's carry only an `alt`. */
  readonly episodeListThumbTitle: boolean;
  /** Video-server option values: base64 of an iframe tag, or links to the site's own server pages `{episode}/v/N/`. */
  readonly serverOptions: 'base64' | 'link';
  /** Series whose later episodes this site has aired (slug → latest episode). */
  readonly laterEpisodes: Readonly<Record<string, number>>;
}

const ENGLISH_LABELS: InfoLabels = {
  released: 'Released',
  duration: 'Duration',
  country: 'Country',
  type: 'Type',
  episodes: 'Episodes',
  postedBy: 'Posted by',
  publishedAt: 'Released on',
  updatedAt: 'Updated on',
};

const CAFE: Variant = {
  name: 'cafe',
  seriesBase: '/seri/',
  listPath: '/seri/',
  links: 'absolute',
  sidebarQuickFilter: true,
  homeHeadingTag: 'h3',
  headings: {
    popularToday: 'Popular Today',
    latestRelease: 'Latest Release',
    recommendation: 'Recommendation',
    ongoing: 'Ongoing',
    seriesList: 'Anime Lists',
    searchNotFound: 'Sorry, but nothing matched your search terms. Please try again with some different keywords.',
  },
  pagerLabels: { previous: 'Previous', next: 'Next' },
  popularTodayList: { listClass: 'normal', innerClass: 'excstf' },
  recommendationCards: 'series',
  listWrapper: false,
  subFilter: false,
  imageStyles: ['src', 'lazyload', 'srcset', 'photon', 'lazy-gif', 'src', 'rocket'],
  infoLabels: ENGLISH_LABELS,
  extraInfoRows: [],
  firstEpisodeButton: 'link',
  episodeSubInsideType: true,
  episodeTitleBlock: 'inside',
  episodeListHeading: 'h4',
  episodeListThumbTitle: true,
  serverOptions: 'base64',
  laterEpisodes: {},
};

const INDONESIAN_HEADINGS: Variant['headings'] = {
  popularToday: 'Populer Hari Ini',
  latestRelease: 'Rilisan Terbaru',
  recommendation: 'Rekomendasi',
  ongoing: 'Ongoing',
  seriesList: 'Daftar Anime',
  searchNotFound: 'Maaf, tidak ada yang cocok dengan kata kunci pencarian Anda. Silakan coba lagi dengan kata kunci lain.',
};

export const VARIANTS: Record<VariantName, Variant> = {
  cafe: CAFE,
  classic: {
    ...CAFE,
    name: 'classic',
    seriesBase: '/anime/',
    listPath: '/anime/',
    homeHeadingTag: 'h2',
    headings: INDONESIAN_HEADINGS,
    popularTodayList: { listClass: 'popularslider', innerClass: 'popconslide' },
    listWrapper: true,
    subFilter: true,
    imageStyles: ['rocket', 'src', 'rocket', 'photon', 'lazyload', 'rocket', 'srcset'],
    infoLabels: { ...ENGLISH_LABELS, released: 'Tanggal rilis', duration: 'Durasi', country: 'Negara' },
    extraInfoRows: [
      ['Fansub', 'Anichin Sub'],
      ['Director', 'Li Hao'],
      ['Casts', 'Zhao Lu, Chen Yi'],
      ['Censor', 'Uncensored'],
    ],
    episodeSubInsideType: false,
  },
  moe: {
    ...CAFE,
    name: 'moe',
    seriesBase: '/',
    listPath: '/anime/',
    links: 'relative',
    headings: { ...INDONESIAN_HEADINGS, popularToday: 'Terpopuler Hari Ini' },
    pagerLabels: { previous: 'Sebelumnya', next: 'Selanjutnya' },
    popularTodayList: { listClass: 'popularslider', innerClass: 'popconslide' },
    recommendationCards: 'episode',
    subFilter: true,
    imageStyles: ['src', 'lazyload', 'src', 'srcset', 'rocket'],
    infoLabels: {
      released: 'Tanggal rilis',
      duration: 'Durasi',
      country: 'Negara',
      type: 'Tipe',
      episodes: 'Episode',
      postedBy: 'Diposting oleh',
      publishedAt: 'Ditambahkan',
      updatedAt: 'Diperbarui pada',
    },
    extraInfoRows: [['Subber', 'Anichin Team']],
    firstEpisodeButton: 'hash',
    episodeListHeading: 'h3',
    laterEpisodes: { 'heaven-devouring-sovereign': 670 },
  },
  sister: {
    ...CAFE,
    name: 'sister',
    seriesBase: '/anime/',
    listPath: '/anime/',
    sidebarQuickFilter: false,
    headings: { ...CAFE.headings, seriesList: 'Donghua List' },
    imageStyles: ['litespeed', 'litespeed', 'rocket', 'litespeed', 'src'],
    extraInfoRows: [
      ['Fansub', 'Lucifer Subs'],
      ['Producers', 'Tencent Penguin Pictures, Bilibili'],
    ],
    episodeSubInsideType: true,
    episodeTitleBlock: 'after',
    episodeListHeading: 'h3',
    episodeListThumbTitle: false,
    serverOptions: 'link',
  },
};

export function isVariantName(name: string | undefined): name is VariantName {
  return (VARIANT_NAMES as readonly (string | undefined)[]).includes(name);
}

/** The profile a run asks for in `SIM_PROFILE`, or `cafe`; an unknown name stops the run. */
export function variantFromEnv(env: NodeJS.ProcessEnv = process.env): VariantName {
  const name = env.SIM_PROFILE;
  if (name === undefined || name === '') return 'cafe';
  if (!isVariantName(name)) throw new Error(`SIM_PROFILE must be one of ${VARIANT_NAMES.join(', ')}, got ${name}`);
  return name;
}

/** The series as this profile's site lists them: the same catalog, with the episodes it has aired since (the latest dated as before). */
export function seriesOfVariant(variant: Variant, series: readonly Series[]): readonly Series[] {
  const later = variant.laterEpisodes;
  return series.map((item) => {
    const latestEpisode = later[item.slug];
    return latestEpisode === undefined || item.latestEpisode === null ? item : { ...item, latestEpisode };
  });
}

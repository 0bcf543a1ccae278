import { createRandom, type Random } from './random.js';

/**
 * The simulated site's content. Everything derives from one seed, so tests can compute expected
 * values from these exports and get the same answer on every run.
 */

export type SeriesType = 'Donghua' | 'Movie' | 'ONA' | 'Live Action' | 'Special';
export type SeriesStatus = 'Ongoing' | 'Completed' | 'Upcoming' | 'Hiatus';

export interface Genre {
  /** WordPress term id; the Recommendation tabs are keyed by it (`#series-{id}`). */
  readonly id: number;
  readonly name: string;
  readonly slug: string;
}

export interface Term {
  readonly name: string;
  readonly slug: string;
}

export interface Series {
  /** WordPress post id: the card's `rel`, and creation order (higher = posted later). */
  readonly id: number;
  readonly slug: string;
  /** Display title, with typographic apostrophes (’) as WordPress shows them. */
  readonly title: string;
  readonly altTitles: readonly string[];
  /** null: no type term set, so cards have no `.typez` badge. */
  readonly type: SeriesType | null;
  readonly status: SeriesStatus;
  /** null: no sub term, so cards have no `.sb` badge. */
  readonly sub: 'Sub' | null;
  /** null for movies and for series with no episode yet. */
  readonly latestEpisode: number | null;
  /** Site-relative upload path, e.g. `/wp-content/uploads/2025/04/Name.webp`. */
  readonly poster: string;
  readonly banner: string | null;
  readonly synopsis: string;
  /** Sorted by name, as WordPress lists a post's terms. */
  readonly genres: readonly Genre[];
  readonly rating: number | null;
  /** All-time views: order of `order=popular` and of the all-time ranking. */
  readonly popularity: number;
  readonly views: { readonly today: number; readonly weekly: number; readonly monthly: number };
  /** ISO timestamp of the last update (latest episode, or the post itself); episode dates count back from it, a week apart. */
  readonly updatedAt: string;
  /** When the post was edited after its latest episode (a live edit or a new episode): the update order and `dateModified` follow it. */
  readonly modifiedAt?: string;
  /** Movies only (ISO date); null = not announced ("TBA"). */
  readonly releaseDate: string | null;
  readonly hot: boolean;
}

/** When the series post last changed: what the update-ordered list sorts by and the page's `dateModified`. */
export function lastModified(series: Series): string {
  return series.modifiedAt ?? series.updatedAt;
}

/** The site's "now" (2026-04-25 10:00 WIB). */
export const SITE_NOW = '2026-04-25T03:00:00.000Z';
export const SITE_NAME = 'Anichin';

const DAY_MS = 86_400_000;
const SEED = 0x2026_0425;

// Name, slug. Includes the real site's typo slugs and one slug unrelated to its name.
const GENRE_DEFS: readonly (readonly [string, string])[] = [
  ['Action', 'action'],
  ['Actions', 'actions'],
  ['Adventure', 'adventure'],
  ['Comedy', 'comedy'],
  ['Crossdressing', 'crossdressing'],
  ['Cultivation', 'cultivation'],
  ['Demons', 'demons'],
  ['Drama', 'drama'],
  ['Ecchi', 'ecchi'],
  ['Fantasy', 'fantasy'],
  ['Game', 'game'],
  ['Harem', 'harem'],
  ['Historical', 'historical'],
  ['Horror', 'horror'],
  ['Isekai', 'isekai'],
  ['Josei', 'josei'],
  ['Magic', 'magic'],
  ['Martial Arts', 'martial-arts'],
  ['Mecha', 'mecha'],
  ['Military', 'military'],
  ['Music', 'music'],
  ['Mystery', 'mystery'],
  ['Mythology', 'mythology'],
  ['Psychological', 'psychological'],
  ['Reincaranation', 'reincaranation'],
  ['Reincarnation', 'reincarnation'],
  ['Revenge', 'revenge'],
  ['Romanc', 'romanc'],
  ['Romance', 'romance'],
  ['School', 'e-school'],
  ['Sci-Fi', 'sci-fi'],
  ['Seinen', 'seinen'],
  ['Shoujo', 'shoujo'],
  ['Shounen', 'shounen'],
  ['Slice of Life', 'slice-of-life'],
  ['Space', 'space'],
  ['Sports', 'sports'],
  ['Super Power', 'super-power'],
  ['Supernatural', 'supernatural'],
  ['Suspense', 'suspense'],
  ['System', 'system'],
  ['Thriller', 'thriller'],
  ['Urban', 'urban'],
  ['Vampire', 'vampire'],
  ['Wuxia', 'wuxia'],
  ['Xianxia', 'xianxia'],
];

/** The one genre no series uses: the sidebar widget hides empty terms, the quick filter does not. */
export const EMPTY_GENRE_SLUG = 'josei';

/** WordPress `sanitize_title` for the characters our titles use. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘']/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function buildGenres(random: Random): Genre[] {
  const ids = random.shuffle(GENRE_DEFS.map((_, index) => 40 + index * 7));
  return GENRE_DEFS.map(([name, slug], index) => ({ id: ids[index] ?? 0, name, slug })).sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

function buildStudios(random: Random): Term[] {
  const heads = ['Xuan', 'Yu', 'Long', 'Jin', 'Bai', 'Hua', 'Mo', 'Qing', 'Shen', 'Tian', 'Fei', 'Lan', 'Ming', 'Ruo', 'Sha'];
  const tails = ['Animation', 'Pictures', 'Studio', 'Motion', 'Works', 'Digital', 'Culture', 'Media', 'CG'];
  const names = heads.flatMap((head) => tails.map((tail) => `${head} ${tail}`));
  return random
    .shuffle(names)
    .slice(0, 130)
    .sort()
    .map((name) => ({ name, slug: slugify(name) }));
}

function buildSeasons(): Term[] {
  const years = Array.from({ length: 13 }, (_, index) => String(2026 - index));
  const named = ['winter-2023', 'fall-2022', 'summer-2022', 'spring-2022'];
  return [...years, ...named].map((slug) => ({
    slug,
    name: slug.replace(/^([a-z])/, (letter) => letter.toUpperCase()).replace('-', ' '),
  }));
}

const ADJECTIVES = [
  'Martial',
  'Eternal',
  'Divine',
  'Supreme',
  'Immortal',
  'Heavenly',
  'Shadow',
  'Jade',
  'Azure',
  'Crimson',
  'Celestial',
  'Boundless',
  'Peerless',
  'Ancient',
  'Soul',
  'Star',
];
const NOUNS = [
  'Peak',
  'Sovereign',
  'Emperor',
  'Master',
  'Realm',
  'Sword',
  'Dao',
  'Throne',
  'Legend',
  'Monarch',
  'Path',
  'Chronicle',
  'Alchemist',
  'Lord',
  'Blade',
  'Dragon',
];
const EPIC_LEADS = ['Legend of the', 'Return of the', 'Song of the', 'Rise of the', 'Tales of the'];
const EPIC_SUBJECTS = [
  'Azure Dragon',
  'Nine Heavens',
  'Sword Saint',
  'Crimson Lotus',
  'Star Sea',
  'Spirit Sea',
  'Thunder God',
  'Eternal Night',
  'Divine Tomb',
  'Black Turtle',
  'Silver Phoenix',
  'Burning Sky',
];
export const MOVIE_SUBTITLES = [
  'The Last Oath',
  'Blood of the Moon',
  'The Sealed City',
  'Heart of Flames',
  'Dawn Breaker',
  'The Frozen Gate',
];

function baseTitle(random: Random): string {
  if (random.chance(0.3)) return `${random.pick(EPIC_LEADS)} ${random.pick(EPIC_SUBJECTS)}`;
  return `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`;
}

function seriesTitle(random: Random): string {
  const base = baseTitle(random);
  return random.chance(0.3) ? `${base} Season ${random.int(2, 6)}` : base;
}

function movieTitle(random: Random): string {
  const base = baseTitle(random);
  const form = random.int(0, 2);
  if (form === 0) return `${base} Movie`;
  if (form === 1) return `${base}: ${random.pick(MOVIE_SUBTITLES)}`;
  return `${base} The Movie`;
}

const HEROES = ['Lin Feng', 'Xiao Yan', 'Wang Lin', 'Han Li', 'Ye Chen', 'Su Ming', 'Tang San', 'Qin Yu'];
const ROLES = [
  'a disciple cast out of his sect',
  'the last heir of a fallen clan',
  'a village boy with broken meridians',
  'a swordsman who lost everything',
  'an alchemist’s apprentice',
];
const GOALS = [
  'climbs the path of cultivation to avenge his master',
  'must protect the Nine Provinces from a returning demon lord',
  'searches for the truth behind his father’s death',
  'challenges heaven itself & the sects that rule it',
];

export function synopsisOf(random: Random, title: string): string {
  return `${title} follows ${random.pick(HEROES)}, ${random.pick(ROLES)}, who ${random.pick(GOALS)}.`;
}

interface Draft {
  title: string;
  altTitles: string[];
  type: SeriesType | null;
  status: SeriesStatus;
  sub: 'Sub' | null;
  latestEpisode: number | null;
  daysAgo: number;
  hot: boolean;
}

// Series whose oddities tests rely on: entities, ALL CAPS, CJK, 1- and 3-digit episodes, no sub. The first
// is the API reference's example series (src/openapi/examples), so the code samples of /docs work here too.
const PINNED: readonly Draft[] = [
  {
    title: 'Renegade Immortal',
    altTitles: ['Xian Ni Lu', '仙逆之路'],
    type: 'Donghua',
    status: 'Ongoing',
    sub: 'Sub',
    latestEpisode: 124,
    daysAgo: 1,
    hot: true,
  },
  {
    title: 'The Emperor’s Tomb',
    altTitles: ['Di Wang Mu'],
    type: 'Donghua',
    status: 'Completed',
    sub: 'Sub',
    latestEpisode: 52,
    daysAgo: 40,
    hot: false,
  },
  { title: 'Swords & Sorcery Academy', altTitles: [], type: 'ONA', status: 'Ongoing', sub: 'Sub', latestEpisode: 3, daysAgo: 2, hot: true },
  {
    title: 'HEAVEN DEVOURING SOVEREIGN',
    altTitles: ['Tun Tian Zhi Zun'],
    type: 'Donghua',
    status: 'Ongoing',
    sub: 'Sub',
    latestEpisode: 600,
    daysAgo: 0,
    hot: true,
  },
  {
    title: 'Heaven’s Blade & Jade Sword',
    altTitles: [],
    type: 'Live Action',
    status: 'Hiatus',
    sub: 'Sub',
    latestEpisode: 18,
    daysAgo: 90,
    hot: false,
  },
  {
    title: 'Soul Realm Conquest',
    altTitles: ['魂域征途'],
    type: 'Special',
    status: 'Upcoming',
    sub: null,
    latestEpisode: null,
    daysAgo: 5,
    hot: false,
  },
];

const NON_MOVIE_COUNT = 68;
const MOVIE_COUNT = 28;

function uniqueTitles(random: Random, count: number, make: (random: Random) => string, taken: Set<string>): string[] {
  const titles: string[] = [];
  while (titles.length < count) {
    const title = make(random);
    if (taken.has(slugify(title))) continue;
    taken.add(slugify(title));
    titles.push(title);
  }
  return titles;
}

function generatedDraft(random: Random, title: string, type: SeriesType | null, status: SeriesStatus): Draft {
  const latestEpisode =
    status === 'Upcoming'
      ? null
      : status === 'Ongoing'
        ? random.int(4, 260)
        : status === 'Hiatus'
          ? random.int(8, 60)
          : random.pick([12, 13, 24, 26, 52, 104, random.int(10, 156)]);
  const daysAgo = status === 'Ongoing' ? random.int(0, 13) : status === 'Upcoming' ? random.int(0, 60) : random.int(15, 400);
  return {
    title,
    altTitles: [],
    type,
    status,
    sub: status === 'Upcoming' || random.chance(0.05) ? null : 'Sub',
    latestEpisode,
    daysAgo,
    hot: random.chance(0.25),
  };
}

function nonMovieDrafts(random: Random, taken: Set<string>): Draft[] {
  const count = NON_MOVIE_COUNT - PINNED.length;
  const types = random.shuffle<SeriesType | null>([
    ...Array<SeriesType>(5).fill('ONA'),
    ...Array<SeriesType>(2).fill('Live Action'),
    ...Array<SeriesType>(2).fill('Special'),
    null,
    null,
    ...Array<SeriesType>(count - 11).fill('Donghua'),
  ]);
  const statuses = random.shuffle<SeriesStatus>([
    ...Array<SeriesStatus>(13).fill('Completed'),
    'Upcoming',
    'Upcoming',
    'Hiatus',
    'Hiatus',
    ...Array<SeriesStatus>(count - 17).fill('Ongoing'),
  ]);
  return uniqueTitles(random, count, seriesTitle, taken).map((title, index) =>
    generatedDraft(random, title, types[index] === undefined ? 'Donghua' : types[index], statuses[index] ?? 'Ongoing'),
  );
}

function movieDrafts(random: Random, taken: Set<string>): Draft[] {
  return uniqueTitles(random, MOVIE_COUNT, movieTitle, taken).map((title) => ({
    title,
    altTitles: [],
    type: 'Movie',
    status: 'Completed',
    sub: random.chance(0.08) ? null : 'Sub',
    latestEpisode: null,
    daysAgo: random.int(1, 300),
    hot: random.chance(0.2),
  }));
}

/** The poster's file name WordPress derives from the uploaded title. */
export function uploadName(title: string): string {
  return title
    .replace(/[’'&:]/g, '')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join('-');
}

function uploadDir(creationRank: number, total: number): string {
  // Creation order maps onto Jan 2022 … Apr 2026 (52 months).
  const monthIndex = Math.floor((creationRank * 51) / Math.max(1, total - 1));
  const year = 2022 + Math.floor(monthIndex / 12);
  const month = String((monthIndex % 12) + 1).padStart(2, '0');
  return `/wp-content/uploads/${year}/${month}`;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function buildSeries(random: Random, genres: readonly Genre[]): Series[] {
  const taken = new Set(PINNED.map((draft) => slugify(draft.title)));
  const drafts = [...PINNED, ...nonMovieDrafts(random, taken), ...movieDrafts(random, taken)];
  const usableGenres = genres.filter((genre) => genre.slug !== EMPTY_GENRE_SLUG);
  const creationRanks = random.shuffle(drafts.map((_, index) => index));
  const now = Date.parse(SITE_NOW);

  const series = drafts.map((draft, index): Series => {
    const rank = creationRanks[index] ?? index;
    const dir = uploadDir(rank, drafts.length);
    const name = uploadName(draft.title);
    const own = new Set<Genre>([usableGenres[index % usableGenres.length] as Genre]);
    const extra = random.int(0, 3);
    while (own.size < 1 + extra) own.add(random.pick(usableGenres));
    const hasBanner = draft.hot || random.chance(0.4);
    return {
      id: 2000 + rank * 613 + random.int(0, 400),
      slug: slugify(draft.title),
      title: draft.title,
      altTitles: draft.altTitles,
      type: draft.type,
      status: draft.status,
      sub: draft.sub,
      latestEpisode: draft.latestEpisode,
      poster: `${dir}/${name}.${random.chance(0.25) ? 'jpg' : 'webp'}`,
      banner: hasBanner ? `${dir}/${name}-Banner.webp` : null,
      synopsis: synopsisOf(random, draft.title),
      genres: [...own].sort((a, b) => a.name.localeCompare(b.name, 'en')),
      rating: draft.status === 'Upcoming' || random.chance(0.07) ? null : random.int(650, 980) / 100,
      popularity: random.int(20_000, 3_000_000),
      views: { today: random.int(50, 30_000), weekly: random.int(1_000, 200_000), monthly: random.int(5_000, 900_000) },
      updatedAt: new Date(now - draft.daysAgo * DAY_MS - random.int(0, 86_399) * 1000).toISOString(),
      releaseDate: draft.type === 'Movie' ? isoDate(Date.UTC(2019, 0, 1) + random.int(0, 2645) * DAY_MS) : null,
      hot: draft.hot,
    };
  });
  return pinNewestMovies(pinUnratedRanked(series)).sort((a, b) => a.id - b.id);
}

/** The five newest movies feed the NEW MOVIE widget: fix their dates to cover both text formats and "TBA". */
function pinNewestMovies(series: Series[]): Series[] {
  const newest = series
    .filter((item) => item.type === 'Movie')
    .sort((a, b) => b.id - a.id)
    .slice(0, 5);
  const dates: readonly (string | null)[] = ['2026-04-04', null, '2026-03-15', '2024-12-02', '2025-11-08'];
  return series.map((item) => {
    const slot = newest.indexOf(item);
    if (slot < 0) return item;
    const releaseDate = dates[slot] ?? null;
    return releaseDate === null ? { ...item, releaseDate, status: 'Upcoming', rating: null } : { ...item, releaseDate };
  });
}

/** Third place of the weekly ranking has no rating, so the widget shows an item without `.rt`. */
function pinUnratedRanked(series: Series[]): Series[] {
  const third = [...series].sort((a, b) => b.views.weekly - a.views.weekly)[2];
  return series.map((item) => (item === third ? { ...item, rating: null } : item));
}

const random = createRandom(SEED);

/** All 46 genres, sorted by name (the quick filter lists every one). */
export const GENRES: readonly Genre[] = buildGenres(random);
/** ~130 studios for the quick filter's `studio[]` checkboxes. */
export const STUDIOS: readonly Term[] = buildStudios(random);
/** Season terms: years 2026…2014, then a few named seasons. */
export const SEASONS: readonly Term[] = buildSeasons();
/** 96 series (28 of them movies), sorted by post id. */
export const SERIES: readonly Series[] = buildSeries(random, GENRES);

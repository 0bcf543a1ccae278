import {
  EMPTY_GENRE_SLUG,
  GENRES,
  MOVIE_SUBTITLES,
  SERIES,
  SITE_NOW,
  slugify,
  synopsisOf,
  uploadName,
  type Series,
  type SeriesStatus,
  type SeriesType,
} from './dataset.js';
import { createRandom, type Random } from './random.js';

/**
 * The site at its real size (about 1,500 series): the default dataset plus generated series, named
 * the way donghua are. Each name is built from Chinese words, so one series has an English title, its
 * pinyin (with tone marks on some, as fans write them), its Chinese characters and often an
 * Indonesian title, and they all mean the same thing. Seeded: the same size gives the same catalog.
 */

interface Word {
  readonly hanzi: string;
  /** With tone marks; the plain form is derived. */
  readonly pinyin: string;
  readonly english: string;
  readonly indonesian: string;
}

/** The words names are made of; tests read the pinyin and characters of a name here. */
const NAME_WORDS: readonly Word[] = [
  { hanzi: '仙', pinyin: 'Xiān', english: 'Immortal', indonesian: 'Abadi' },
  { hanzi: '神', pinyin: 'Shén', english: 'Divine', indonesian: 'Dewa' },
  { hanzi: '武', pinyin: 'Wǔ', english: 'Martial', indonesian: 'Bela Diri' },
  { hanzi: '剑', pinyin: 'Jiàn', english: 'Sword', indonesian: 'Pedang' },
  { hanzi: '龙', pinyin: 'Lóng', english: 'Dragon', indonesian: 'Naga' },
  { hanzi: '天', pinyin: 'Tiān', english: 'Heaven', indonesian: 'Langit' },
  { hanzi: '魔', pinyin: 'Mó', english: 'Demon', indonesian: 'Iblis' },
  { hanzi: '灵', pinyin: 'Líng', english: 'Spirit', indonesian: 'Roh' },
  { hanzi: '星', pinyin: 'Xīng', english: 'Star', indonesian: 'Bintang' },
  { hanzi: '尊', pinyin: 'Zūn', english: 'Sovereign', indonesian: 'Penguasa' },
  { hanzi: '帝', pinyin: 'Dì', english: 'Emperor', indonesian: 'Kaisar' },
  { hanzi: '王', pinyin: 'Wáng', english: 'King', indonesian: 'Raja' },
  { hanzi: '界', pinyin: 'Jiè', english: 'Realm', indonesian: 'Alam' },
  { hanzi: '风', pinyin: 'Fēng', english: 'Wind', indonesian: 'Angin' },
  { hanzi: '云', pinyin: 'Yún', english: 'Cloud', indonesian: 'Awan' },
  { hanzi: '火', pinyin: 'Huǒ', english: 'Flame', indonesian: 'Api' },
  { hanzi: '雷', pinyin: 'Léi', english: 'Thunder', indonesian: 'Petir' },
  { hanzi: '玄', pinyin: 'Xuán', english: 'Mystic', indonesian: 'Gaib' },
  { hanzi: '圣', pinyin: 'Shèng', english: 'Saint', indonesian: 'Suci' },
  { hanzi: '斗', pinyin: 'Dòu', english: 'Battle', indonesian: 'Pertarungan' },
  { hanzi: '苍', pinyin: 'Cāng', english: 'Azure', indonesian: 'Biru' },
  { hanzi: '万', pinyin: 'Wàn', english: 'Myriad', indonesian: 'Selaksa' },
  { hanzi: '古', pinyin: 'Gǔ', english: 'Ancient', indonesian: 'Kuno' },
  { hanzi: '荒', pinyin: 'Huāng', english: 'Wild', indonesian: 'Liar' },
  { hanzi: '血', pinyin: 'Xuè', english: 'Blood', indonesian: 'Darah' },
  { hanzi: '月', pinyin: 'Yuè', english: 'Moon', indonesian: 'Bulan' },
  { hanzi: '凤', pinyin: 'Fèng', english: 'Phoenix', indonesian: 'Feniks' },
  { hanzi: '虎', pinyin: 'Hǔ', english: 'Tiger', indonesian: 'Harimau' },
  { hanzi: '山', pinyin: 'Shān', english: 'Mountain', indonesian: 'Gunung' },
  { hanzi: '海', pinyin: 'Hǎi', english: 'Sea', indonesian: 'Lautan' },
  { hanzi: '金', pinyin: 'Jīn', english: 'Golden', indonesian: 'Emas' },
  { hanzi: '玉', pinyin: 'Yù', english: 'Jade', indonesian: 'Giok' },
  { hanzi: '光', pinyin: 'Guāng', english: 'Light', indonesian: 'Cahaya' },
  { hanzi: '影', pinyin: 'Yǐng', english: 'Shadow', indonesian: 'Bayangan' },
  { hanzi: '心', pinyin: 'Xīn', english: 'Heart', indonesian: 'Hati' },
  { hanzi: '魂', pinyin: 'Hún', english: 'Soul', indonesian: 'Jiwa' },
  { hanzi: '道', pinyin: 'Dào', english: 'Dao', indonesian: 'Jalan' },
  { hanzi: '门', pinyin: 'Mén', english: 'Sect', indonesian: 'Sekte' },
  { hanzi: '霸', pinyin: 'Bà', english: 'Overlord', indonesian: 'Penakluk' },
  { hanzi: '狂', pinyin: 'Kuáng', english: 'Mad', indonesian: 'Gila' },
];

/** Fullwidth digits, as Chinese titles often write a season number (`第２季`). */
const FULLWIDTH_DIGITS = '０１２３４５６７８９';

/** The pinyin without tone marks, as slugs and most fans write it. */
export function plainPinyin(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '');
}

interface Name {
  readonly title: string;
  readonly altTitles: string[];
}

function fullwidth(value: number): string {
  return String(value).replace(/\d/g, (digit) => FULLWIDTH_DIGITS[Number(digit)] ?? digit);
}

/** One series' names, all from the same Chinese words. Alternative titles never contain a comma: the site joins them with ", ". */
function seriesName(random: Random, movie: boolean): Name {
  const words = Array.from({ length: random.int(2, 4) }, () => random.pick(NAME_WORDS));
  const toned = words.map((word) => word.pinyin).join(' ');
  const pinyin = random.chance(0.3) ? toned : plainPinyin(toned);
  const english = words.map((word) => word.english).join(' ');
  // Indonesian puts the head noun first.
  const indonesian = [...words]
    .reverse()
    .map((word) => word.indonesian)
    .join(' ');
  let hanzi = words.map((word) => word.hanzi).join('');
  const season = !movie && random.chance(0.2) ? random.int(2, 5) : null;
  const numbered = random.chance(0.015) ? `${random.pick(['7', '9', '100'])} ` : '';
  let title = random.chance(0.3) ? `${numbered}${plainPinyin(toned)}` : `${numbered}${english}`;
  if (season !== null) {
    title = `${title} Season ${season}`;
    hanzi = `${hanzi} 第${random.chance(0.5) ? fullwidth(season) : String(season)}季`;
  }
  if (movie) {
    const subtitle = random.pick(MOVIE_SUBTITLES);
    title = `${title}: ${subtitle}`;
    hanzi = `${hanzi} 剧场版`;
  }
  if (random.chance(0.1)) return { title, altTitles: [] };
  const other = title.startsWith(`${numbered}${english}`) ? pinyin : english;
  const altTitles = [other, ...(random.chance(0.4) ? [`${indonesian}${season === null ? '' : ` Musim ${season}`}`] : []), hanzi];
  return { title, altTitles };
}

const DAY_MS = 86_400_000;
const TYPES: readonly (SeriesType | null)[] = [
  ...Array<SeriesType>(85).fill('Donghua'),
  ...Array<SeriesType>(8).fill('ONA'),
  'Special',
  'Special',
  'Special',
  'Live Action',
  'Live Action',
  null,
  null,
];
const USABLE_GENRES = GENRES.filter((genre) => genre.slug !== EMPTY_GENRE_SLUG);

function status(random: Random): SeriesStatus {
  const roll = random.next();
  if (roll < 0.14) return 'Ongoing';
  if (roll < 0.18) return 'Upcoming';
  if (roll < 0.22) return 'Hiatus';
  return 'Completed';
}

/** "A few hundred series with long episode lists": one in five runs past a hundred episodes. */
function latestEpisode(random: Random, state: SeriesStatus): number | null {
  if (state === 'Upcoming') return null;
  const long = random.chance(0.2);
  if (state === 'Ongoing') return long ? random.int(100, 400) : random.int(4, 60);
  if (state === 'Hiatus') return random.int(8, 60);
  return long ? random.int(100, 300) : random.pick([12, 13, 24, 26, 52, random.int(10, 99)]);
}

/** A generated series; `id` orders it among the others, `updatedAt` places it in the update order. */
export function generatedSeries(random: Random, id: number, updatedAt: string, taken: Set<string>): Series {
  const movie = random.chance(0.12);
  let name = seriesName(random, movie);
  while (taken.has(slugify(name.title))) name = seriesName(random, movie);
  taken.add(slugify(name.title));
  const state: SeriesStatus = movie ? (random.chance(0.05) ? 'Upcoming' : 'Completed') : status(random);
  // Posters sit in the upload folder of the year the series came out (2015 … 2026); the season terms follow it.
  const year = 2015 + (id % 12);
  const dir = `/wp-content/uploads/${year}/${String((id % 12) + 1).padStart(2, '0')}`;
  const file = uploadName(plainPinyin(name.title).replace(/[^A-Za-z0-9 ]/g, ''));
  const genres = new Set([USABLE_GENRES[id % USABLE_GENRES.length]!]);
  const extra = random.int(0, 3);
  while (genres.size < 1 + extra) genres.add(random.pick(USABLE_GENRES));
  const hot = random.chance(0.05);
  return {
    id,
    slug: slugify(name.title),
    title: name.title,
    altTitles: name.altTitles,
    type: movie ? 'Movie' : random.pick(TYPES),
    status: state,
    sub: state === 'Upcoming' || random.chance(0.05) ? null : 'Sub',
    latestEpisode: movie ? null : latestEpisode(random, state),
    poster: `${dir}/${file}.${random.chance(0.25) ? 'jpg' : 'webp'}`,
    banner: hot || random.chance(0.3) ? `${dir}/${file}-Banner.webp` : null,
    synopsis: synopsisOf(random, name.title),
    genres: [...genres].sort((a, b) => a.name.localeCompare(b.name, 'en')),
    rating: state === 'Upcoming' || random.chance(0.07) ? null : random.int(650, 980) / 100,
    popularity: random.int(5_000, 2_000_000),
    views: { today: random.int(10, 20_000), weekly: random.int(100, 150_000), monthly: random.int(500, 700_000) },
    updatedAt,
    releaseDate: movie ? new Date(Date.UTC(2016, 0, 1) + random.int(0, 3700) * DAY_MS).toISOString().slice(0, 10) : null,
    hot,
  };
}

/** Post ids of generated series start above the default dataset's, so the default series keep their places. */
const FIRST_GENERATED_ID = 70_000;
const ID_STEP = 37;

function pastUpdate(random: Random, series: Series): string {
  const now = Date.parse(SITE_NOW);
  const daysAgo = series.status === 'Ongoing' ? random.int(0, 13) : series.status === 'Upcoming' ? random.int(0, 60) : random.int(15, 1500);
  return new Date(now - daysAgo * DAY_MS - random.int(0, 86_399) * 1000).toISOString();
}

const built = new Map<number, readonly Series[]>();

/**
 * `size` series, sorted by post id: the default dataset's, then generated ones; fewer than the
 * default dataset, its oldest `size` posts (a younger site, for a test whose claim holds on a few pages).
 */
export function catalogSeries(size: number): readonly Series[] {
  if (!Number.isInteger(size) || size < 1) throw new Error(`catalogSize must be a positive integer, got ${size}`);
  if (size <= SERIES.length) return SERIES.slice(0, size);
  const cached = built.get(size);
  if (cached !== undefined) return cached;
  const random = createRandom(0x5e71e5 + size);
  const taken = new Set(SERIES.map((series) => series.slug));
  const generated: Series[] = [];
  for (let index = 0; generated.length < size - SERIES.length; index++) {
    const series = generatedSeries(random, FIRST_GENERATED_ID + index * ID_STEP, SITE_NOW, taken);
    generated.push({ ...series, updatedAt: pastUpdate(random, series) });
  }
  const all = [...SERIES, ...generated];
  built.set(size, all);
  return all;
}

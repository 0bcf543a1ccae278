import type { CheerioAPI } from 'cheerio/slim';
import type { Element } from 'domhandler';
import type { Term } from '../contract/schemas.js';
import type { EpisodeEntry, EpisodeRef, InfoEntry, SeriesDetail } from '../contract/series.js';
import { canonicalUrl } from './canonical.js';
import { parseDownloads } from './detail/downloads.js';
import { parseFirstAndLatest, readEpisodeLister } from './detail/episodeLister.js';
import { infoRows, type InfoRow } from './detail/infoRows.js';
import { termsOf } from './detail/terms.js';
import { LayoutChangedError } from './errors.js';
import { loadMainColumnBlocks, mainColumnMarkup } from './scope.js';
import { parseRating, parseReleaseDate } from './text.js';
import type { ParsedPage } from './types.js';
import { absoluteUrl, imageUrl, slugFromUrl } from './url.js';
import { allMatches, elementText, firstMatch, firstMatches, insideClass, type Matcher } from './walk.js';

/** The field an info row fills (`releaseDate` comes with `released`), or the uploader's row, which is dropped. */
type InfoField = Exclude<keyof InfoData, 'releaseDate'> | 'postedBy';

// Info labels by install: English on anichin.cafe and the sister sites, Indonesian on the later
// snapshot and older domains. Every other label ends up in `otherInfo`; "Posted by" names the
// uploader, not the series, and is dropped. A row whose `time` carries `itemprop` is the date it
// names, whatever its label (`DATE_PROPS`).
const INFO_FIELDS: Record<string, InfoField> = {
  status: 'status',
  type: 'type',
  tipe: 'type',
  network: 'networks',
  networks: 'networks',
  jaringan: 'networks',
  studio: 'studios',
  studios: 'studios',
  season: 'season',
  musim: 'season',
  country: 'country',
  negara: 'country',
  released: 'released',
  'tanggal rilis': 'released',
  rilis: 'released',
  duration: 'duration',
  durasi: 'duration',
  episodes: 'episodeCount',
  episode: 'episodeCount',
  'total episode': 'episodeCount',
  'released on': 'publishedAt',
  'dirilis pada': 'publishedAt',
  ditambahkan: 'publishedAt',
  'updated on': 'updatedAt',
  'diperbarui pada': 'updatedAt',
  'posted by': 'postedBy',
  'diposting oleh': 'postedBy',
};

const DATE_PROPS: Record<string, InfoField> = { datePublished: 'publishedAt', dateModified: 'updatedAt' };

// The page's blocks, found in one walk of the main column rather than one selector query each (speed only).
const SERIES_BLOCKS = {
  // The series box; `.bigcontent` alone on installs without the `.animefull` wrapper.
  full: (_el, classes) => classes.includes('animefull') || classes.includes('bigcontent'),
  // The real description; `.mindesc` and `.desc` in the box hold SEO text.
  synopsis: (el, classes) => classes.includes('entry-content') && el.attribs['itemprop'] === 'description',
  synopsisBlock: (_el, classes) => classes.includes('synp'),
  tags: (_el, classes) => classes.includes('bottom') && classes.includes('tags'),
  lastend: (_el, classes) => classes.includes('lastend'),
} satisfies Record<string, Matcher>;

// The parts of the series box, found in one walk of it rather than one selector query each.
const BOX_PARTS = {
  infox: (_el, classes) => classes.includes('infox'),
  poster: (el) => el.name === 'img' && insideClass(el, 'thumb'),
  banner: (el) => el.name === 'img' && insideClass(el, 'bigcover'),
  rating: (_el, classes) => classes.includes('rating'),
  trailer: (el, classes) => el.name === 'a' && classes.includes('trailerbutton'),
  followers: (_el, classes) => classes.includes('bmc'),
} satisfies Record<string, Matcher>;

const INFOX_PARTS = {
  title: (el) => el.name === 'h1',
  spe: (_el, classes) => classes.includes('spe'),
  alter: (_el, classes) => classes.includes('alter'),
  genxed: (_el, classes) => classes.includes('genxed'),
} satisfies Record<string, Matcher>;

/** A series page `{seriesPath}{slug}/`: everything the site says about the series, its episodes and batches. */
export function parseSeriesPage(html: string, pageUrl: string): ParsedPage<SeriesDetail> {
  // The column is cut once; the list is read off it as it streams by, and the rest is parsed.
  const column = mainColumnMarkup(html);
  const lister = readEpisodeLister(column, pageUrl);
  const { $, main, found: blocks } = loadMainColumnBlocks(lister?.rest ?? column, SERIES_BLOCKS);
  // A page without the series box (a list, an episode, a redesign) is not a series page.
  const box = blocks.full === undefined ? {} : firstMatches(blocks.full, BOX_PARTS);
  const infox = box.infox === undefined ? {} : firstMatches(box.infox, INFOX_PARTS);
  const title = elementText($, infox.title);
  const spe = infox.spe;
  if (!title || spe === undefined) throw new LayoutChangedError('series', [...(title ? [] : ['title']), ...(spe ? [] : ['info'])]);

  const info = infoFields($, infoRows($, spe), pageUrl);
  const episodes = lister?.entries ?? null;
  const { first, latest } =
    blocks.lastend === undefined ? { first: null, latest: null } : parseFirstAndLatest($, blocks.lastend, episodes ?? [], pageUrl);
  const synopsisBlockContent =
    blocks.synopsisBlock && firstMatch(blocks.synopsisBlock, (_el, classes) => classes.includes('entry-content'));
  const synopsis = parseSynopsis($, blocks.synopsis ?? synopsisBlockContent);
  const poster = imageUrl(box.poster, pageUrl);
  const url = canonicalUrl(html, pageUrl);
  const data: SeriesDetail = {
    title,
    slug: slugFromUrl(url) ?? '',
    url,
    alternativeTitle: elementText($, infox.alter) || null,
    poster,
    // Without a cover the theme prints `div.bigcontent.nobigcv` and no `.bigcover`.
    banner: imageUrl(box.banner, pageUrl),
    synopsis,
    ...info.fields,
    rating: parseRatingBlock($, box.rating),
    trailer: absoluteUrl(box.trailer?.attribs['href'], pageUrl),
    followers: parseFollowers(elementText($, box.followers)),
    genres: termsOf($, linksIn(infox.genxed), pageUrl),
    tags: termsOf($, linksIn(blocks.tags), pageUrl),
    otherInfo: info.otherInfo,
    // Without the First / New Episode buttons, the list's ends (it is newest first).
    firstEpisode: first ?? refOf(episodes?.at(-1)),
    latestEpisode: latest ?? refOf(episodes?.[0]),
    episodes: episodes ?? [],
    batches: parseDownloads($, main, pageUrl),
  };
  const missing = [
    ...(episodes === null ? ['episodes'] : []),
    ...(synopsis === null ? ['synopsis'] : []),
    ...(poster === null ? ['poster'] : []),
  ];
  return { data, pagination: null, missing };
}

function linksIn(block: Element | undefined): Element[] {
  return block === undefined ? [] : allMatches(block, (el) => el.name === 'a');
}

type InfoData = Pick<
  SeriesDetail,
  | 'status'
  | 'type'
  | 'networks'
  | 'studios'
  | 'season'
  | 'country'
  | 'released'
  | 'releaseDate'
  | 'duration'
  | 'episodeCount'
  | 'publishedAt'
  | 'updatedAt'
>;

function infoFields($: CheerioAPI, rows: InfoRow[], pageUrl: string): { fields: InfoData; otherInfo: InfoEntry[] } {
  const fields: InfoData = {
    status: null,
    type: null,
    networks: [],
    studios: [],
    season: null,
    country: null,
    released: null,
    releaseDate: null,
    duration: null,
    episodeCount: null,
    publishedAt: null,
    updatedAt: null,
  };
  const otherInfo: InfoEntry[] = [];
  const text = (row: InfoRow) => row.value || null;
  const oneTerm = (row: InfoRow): Term | null => termsOf($, row.links, pageUrl)[0] ?? null;
  for (const row of rows) {
    switch ((row.dateProp === null ? undefined : DATE_PROPS[row.dateProp]) ?? INFO_FIELDS[row.key]) {
      case 'status':
        fields.status = text(row);
        break;
      case 'type':
        fields.type = text(row);
        break;
      case 'networks':
        fields.networks = termsOf($, row.links, pageUrl);
        break;
      case 'studios':
        fields.studios = termsOf($, row.links, pageUrl);
        break;
      case 'season':
        fields.season = oneTerm(row);
        break;
      case 'country':
        fields.country = oneTerm(row);
        break;
      case 'released':
        fields.released = text(row);
        fields.releaseDate = parseReleaseDate(row.value);
        break;
      case 'duration':
        fields.duration = text(row);
        break;
      case 'episodeCount':
        fields.episodeCount = wholeNumber(row.value);
        break;
      case 'publishedAt':
        fields.publishedAt = isoDatetime(row.datetime);
        break;
      case 'updatedAt':
        fields.updatedAt = isoDatetime(row.datetime);
        break;
      case 'postedBy':
        break;
      case undefined:
        if (row.value) otherInfo.push({ label: row.label, value: row.value });
        break;
    }
  }
  return { fields, otherInfo };
}

/** The description's paragraphs joined by a blank line. */
function parseSynopsis($: CheerioAPI, content: Element | undefined): string | null {
  if (content === undefined) return null;
  const paragraphs = allMatches(content, (el) => el.name === 'p')
    .map((p) => elementText($, p))
    .filter(Boolean);
  const text = paragraphs.length > 0 ? paragraphs.join('\n\n') : elementText($, content);
  return text || null;
}

// `meta[itemprop=ratingValue]` is the number itself; "Rating 9.20" in `strong` is its display form.
function parseRatingBlock($: CheerioAPI, rating: Element | undefined): number | null {
  if (rating === undefined) return null;
  const parts = firstMatches(rating, {
    value: (el) => el.name === 'meta' && el.attribs['itemprop'] === 'ratingValue',
    display: (el) => el.name === 'strong',
  });
  return parseRating(parts.value?.attribs['content']) ?? parseRating(elementText($, parts.display));
}

/** "Followed 7814 people", "Followed 1.234 people" → the count. */
function parseFollowers(text: string): number | null {
  const digits = /\d[\d.,]*/.exec(text)?.[0].replace(/[.,]/g, '');
  return digits ? Number(digits) : null;
}

function wholeNumber(text: string): number | null {
  return /^\d+$/.test(text) ? Number(text) : null;
}

function isoDatetime(value: string | null): string | null {
  return value !== null && !Number.isNaN(Date.parse(value)) ? value : null;
}

function refOf(entry: EpisodeEntry | undefined): EpisodeRef | null {
  return entry === undefined ? null : { episode: entry.episode, slug: entry.slug, url: entry.url };
}

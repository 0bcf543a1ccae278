import { LRUCache } from 'lru-cache';
import MiniSearch from 'minisearch';
import type { Pagination, SeriesCard } from '../contract/schemas.js';
import { foldTitle, isCjk, titleTerms, titleWords } from './titleText.js';

/** What the index needs of a series: its card, and the names the series page lists besides the title. */
export interface TitledSeries extends SeriesCard {
  /** The series page's alternative-title field as printed: names joined by ", "; null when it has none. */
  readonly alternativeTitle: string | null;
}

export interface TitleSearchPage {
  readonly results: SeriesCard[];
  readonly pagination: Pagination;
}

/** @internal exported for the tests: the title index test fills exactly one page. */
export const TITLE_SEARCH_PER_PAGE = 20;
/** A word this long or longer may have one letter wrong, missing or extra; shorter words would match too much. */
const TYPO_MIN_LENGTH = 4;
/** A word this long or longer also matches the words it begins; a single letter would match most of the catalog. */
const PREFIX_MIN_LENGTH = 2;
/**
 * Series scores kept of the query terms searched since the index last changed, counted in series:
 * about 2 MB, a few hundred terms (a common word matches a few hundred series of 2,000).
 */
const TERM_SCORES_MAX_ENTRIES = 50_000;

/** A query term's matches (the term as typed, the words it begins, one typo): its part of each series' score, by slug. */
type TermScores = ReadonlyMap<string, number>;

/** One name of a series, folded, in the forms the ranking compares. */
interface Name {
  readonly words: readonly string[];
  /** The words run together: how a CJK name (no spaces) is compared. */
  readonly joined: string;
  readonly cjk: boolean;
}

interface Held {
  readonly card: SeriesCard;
  /** Each name (title first), for ranking a whole-name match above a scattered one. */
  readonly names: readonly Name[];
}

interface Match {
  readonly held: Held;
  readonly level: number;
  readonly score: number;
}

/** A search of one term as it is: the tokenizer already made it a term. */
const asOneTerm = (term: string) => [term];

function nameOf(text: string): Name {
  const words = titleWords(foldTitle(text));
  return { words, joined: words.join(''), cjk: words.some(isCjk) };
}

/**
 * How close a series' best name comes to the query: 3 the whole name, 2 the name begins with the
 * query (each word a start of the name's word in turn: autocomplete), 1 one name holds every query
 * word as typed, 0 the words are spread over names or forgiven (prefix, typo). The library's score
 * ranks within a level; it alone would put "Sword Star Myriad" above "Sword Star" for "sword star".
 */
function closeness(names: readonly Name[], query: Name): number {
  let best = 0;
  for (const name of names) {
    if (name.joined === query.joined) return 3;
    // A CJK name is matched as one string: its words are not separated by spaces.
    const startsWith =
      name.cjk || query.cjk
        ? name.joined.startsWith(query.joined)
        : query.words.every((word, index) => name.words[index]?.startsWith(word) === true);
    if (startsWith) best = 2;
    else if (best < 1 && query.words.every((word) => name.words.includes(word) || (isCjk(word) && name.joined.includes(word)))) best = 1;
  }
  return best;
}

/**
 * The in-memory title index of the local catalog: every series by its title and alternative titles
 * (Chinese characters, pinyin, English, Indonesian), searched insensitive to case, accents and
 * character width, forgiving word prefixes and one typo per word, best match first.
 *
 * MiniSearch (chosen by measurement over FlexSearch and Orama: the only one with real one-edit typo
 * tolerance per word at sub-millisecond median on 2,000 titles) holds the terms; CJK terms come from
 * our own tokenizer (characters and pairs), since none of the three splits Chinese without spaces.
 */
export class TitleIndex {
  readonly #held = new Map<string, Held>();
  readonly #search = new MiniSearch<{ id: string; title: string; alternativeTitle: string }>({
    fields: ['title', 'alternativeTitle'],
    storeFields: [],
    tokenize: titleTerms,
    // Terms are folded by the tokenizer already.
    processTerm: (term) => term,
    searchOptions: {
      combineWith: 'AND',
      boost: { title: 2 },
      prefix: (term) => !isCjk(term) && term.length >= PREFIX_MIN_LENGTH,
      fuzzy: (term) => (!isCjk(term) && term.length >= TYPO_MIN_LENGTH ? 1 : false),
      maxFuzzy: 1,
    },
  });
  // A search is the series every query term matches, each term's score added, so a term's scores
  // are kept for the next query using the term: most queries share words ("season", "the", a
  // pinyin syllable), and a term's matches cost the bulk of a search (a few hundred series scored
  // and allocated for a common word). Any change of the index changes every score, so it clears them.
  readonly #termScores = new LRUCache<string, TermScores>({
    maxSize: TERM_SCORES_MAX_ENTRIES,
    sizeCalculation: (scores) => scores.size + 1,
  });
  #version = 0;

  /** Grows with every change, so an answer cached for one version is never served after a change. */
  get version(): number {
    return this.#version;
  }

  get size(): number {
    return this.#held.size;
  }

  upsert(series: TitledSeries): void {
    const { alternativeTitle, ...card } = series;
    if (this.#search.has(card.slug)) this.#search.discard(card.slug);
    this.#search.add({ id: card.slug, title: card.title, alternativeTitle: alternativeTitle ?? '' });
    const names = [card.title, ...(alternativeTitle ?? '').split(/,\s*/)].filter((name) => name.trim() !== '');
    this.#held.set(card.slug, {
      card: { title: card.title, slug: card.slug, url: card.url, poster: card.poster, type: card.type, status: card.status, sub: card.sub },
      names: names.map(nameOf),
    });
    this.#changed();
  }

  remove(slug: string): void {
    if (!this.#held.delete(slug)) return;
    this.#search.discard(slug);
    this.#changed();
  }

  #changed(): void {
    this.#version += 1;
    this.#termScores.clear();
  }

  /**
   * Page `page` (from 1) of the series matching `query`, 20 a page; past the last page, no results.
   * Like the site's search, a search that finds nothing has one page, empty.
   */
  search(query: string, page: number): TitleSearchPage {
    const asked = nameOf(query);
    const ranked = asked.words.length === 0 ? [] : this.#ranked(this.#matching(titleTerms(query)), asked);
    const totalPages = Math.max(1, Math.ceil(ranked.length / TITLE_SEARCH_PER_PAGE));
    const start = (page - 1) * TITLE_SEARCH_PER_PAGE;
    return {
      results: ranked.slice(start, start + TITLE_SEARCH_PER_PAGE).map((match) => match.held.card),
      pagination: {
        currentPage: page,
        hasPrevPage: page > 1,
        prevPage: page > 1 ? page - 1 : null,
        hasNextPage: page < totalPages,
        nextPage: page < totalPages ? page + 1 : null,
        totalPages,
      },
    };
  }

  /**
   * The series matching every term, with their scores: what the library's AND search of the whole
   * query finds, term by term. The library multiplies each sum by the number of distinct terms, the
   * same for every series of one query, so the order is the same without it.
   */
  #matching(terms: readonly string[]): Map<string, number> {
    const scored = terms.map((term) => this.#scoresOf(term));
    const fewest = scored.reduce((a, b) => (b.size < a.size ? b : a));
    const matching = new Map<string, number>();
    candidates: for (const slug of fewest.keys()) {
      // Added in the query's order, as the library adds them, so that equal sums stay equal.
      let score = 0;
      for (const scores of scored) {
        const part = scores.get(slug);
        if (part === undefined) continue candidates;
        score += part;
      }
      matching.set(slug, score);
    }
    return matching;
  }

  #scoresOf(term: string): TermScores {
    let scores = this.#termScores.get(term);
    if (scores === undefined) {
      scores = new Map(this.#search.search(term, { tokenize: asOneTerm }).map((result) => [result.id as string, result.score]));
      this.#termScores.set(term, scores);
    }
    return scores;
  }

  #ranked(found: ReadonlyMap<string, number>, asked: Name): Match[] {
    const matches: Match[] = [];
    for (const [slug, score] of found) {
      const held = this.#held.get(slug);
      if (held !== undefined) matches.push({ held, level: closeness(held.names, asked), score });
    }
    return matches.sort(
      (a, b) =>
        b.level - a.level ||
        b.score - a.score ||
        a.held.card.title.length - b.held.card.title.length ||
        (a.held.card.slug < b.held.card.slug ? -1 : 1),
    );
  }
}

// C0 controls other than tab, line feed and carriage return, and the Unicode noncharacters
// (U+FDD0–U+FDEF and the last two code points of every plane, U+FFFE and U+FFFF among them): XML
// forbids most of them, so one such character in a title would make a whole Atom or RSS feed
// ill-formed, and none of them is text a reader could see. The site serves them raw or as character
// references (`&#1;`); the HTML parser decodes a reference to the character itself (or, for NUL and
// surrogates, to U+FFFD as the HTML standard says), so dropping them from decoded text covers both.
// eslint-disable-next-line no-control-regex -- matching control characters is what this pattern is for
const NOT_TEXT = /[\0-\x08\x0B\x0C\x0E-\x1F\p{Noncharacter_Code_Point}]/gu;

// What could hold a character NOT_TEXT drops: a C0 control, a noncharacter of the first plane, or a
// high surrogate (every other plane's noncharacters are surrogate pairs). Speed only: most texts
// hold none, and a pattern without the `u` flag tests that cheaper than the replace runs; the
// answer is the same without it.
// eslint-disable-next-line no-control-regex -- matching control characters is what this pattern is for
const MAY_HOLD_NOT_TEXT = /[\0-\x08\x0B\x0C\x0E-\x1F\uFDD0-\uFDEF\uFFFE\uFFFF\uD800-\uDBFF]/;

/**
 * The site's text without the characters that are not text (above); everything else as it is.
 * Every string a parser returns passes through it once, where the text or attribute is read:
 * through `cleanText`, or through the link functions of url.ts for URLs and slugs.
 */
export function withoutNonText(text: string): string {
  return MAY_HOLD_NOT_TEXT.test(text) ? text.replace(NOT_TEXT, '') : text;
}

// What cleanText would change: two whitespace characters in a row, any whitespace but a plain
// space, or a space at either end. Speed only: most texts have none, and the test is cheaper than
// the replace and trim it spares; the answer is the same without it.
const UNCLEAN_WHITESPACE = /\s\s|[^\S ]|^ | $/;

// Either of the two, in one test: most texts hold neither, and one test costs about half of two (speed only).
const MAY_NEED_CLEANING = new RegExp(`${MAY_HOLD_NOT_TEXT.source}|${UNCLEAN_WHITESPACE.source}`);

/**
 * The site's text as shown: without characters that are not text, every run of whitespace (nbsp
 * included; JS `\s` covers it) collapsed to one space, trimmed. Dropping comes first, so that
 * `a \x01 b` gives `a b`.
 */
export function cleanText(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  if (!MAY_NEED_CLEANING.test(text)) return text;
  const kept = withoutNonText(text);
  return UNCLEAN_WHITESPACE.test(kept) ? kept.replace(/\s+/g, ' ').trim() : kept;
}

/** "Ep 124", "Episode 12", "Eps 12.5" or a bare "124" → the number; anything else ("Movie") → null. */
export function parseEpisodeNumber(text: string | null | undefined): number | null {
  const clean = cleanText(text);
  // A bare number first (an `epl-num`), for speed only: it holds no word for the other pattern to find.
  const match = /^(\d+(?:[.,]\d+)?)$/.exec(clean) ?? /\b(?:episode|eps?)\.?\s*(\d+(?:[.,]\d+)?)/i.exec(clean);
  return match?.[1] === undefined ? null : Number(match[1].replace(',', '.'));
}

/** "9.20" (or "Rating 9,20") → 9.2; null when there is no number. */
export function parseRating(text: string | null | undefined): number | null {
  const match = /\d+(?:[.,]\d+)?/.exec(cleanText(text));
  if (!match) return null;
  const rating = Number(match[0].replace(',', '.'));
  return Number.isFinite(rating) ? rating : null;
}

// English and Indonesian month names and their short forms, as the theme prints them on
// English (anichin.cafe) and Indonesian (older domains) installs.
const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  januari: 1,
  feb: 2,
  february: 2,
  februari: 2,
  mar: 3,
  march: 3,
  maret: 3,
  apr: 4,
  april: 4,
  may: 5,
  mei: 5,
  jun: 6,
  june: 6,
  juni: 6,
  jul: 7,
  july: 7,
  juli: 7,
  aug: 8,
  august: 8,
  agu: 8,
  agt: 8,
  ags: 8,
  agustus: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  okt: 10,
  oktober: 10,
  nov: 11,
  november: 11,
  nop: 11,
  nopember: 11,
  dec: 12,
  december: 12,
  des: 12,
  desember: 12,
};

/** "Apr 4, 2026", "April 25, 2026", "Des 02, 2024", "5 Agustus 2025" or ISO text → "YYYY-MM-DD"; else null. */
export function parseReleaseDate(text: string | null | undefined): string | null {
  const clean = cleanText(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(clean);
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const monthFirst = /^([a-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/i.exec(clean);
  if (monthFirst) return isoDate(Number(monthFirst[3]), monthNumber(monthFirst[1]), Number(monthFirst[2]));
  const dayFirst = /^(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})$/i.exec(clean);
  if (dayFirst) return isoDate(Number(dayFirst[3]), monthNumber(dayFirst[2]), Number(dayFirst[1]));
  return null;
}

function monthNumber(name: string | undefined): number {
  return MONTHS[(name ?? '').toLowerCase()] ?? 0;
}

// A month has only so many days: "Feb 30" or "31 Jun" is no date (correctness). Checked by
// arithmetic rather than by a Date round trip for speed only.
function isoDate(year: number, month: number, day: number): string | null {
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return `${year}-${twoDigits(month)}-${twoDigits(day)}`;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leapYear = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leapYear ? 29 : DAYS_IN_MONTH[month - 1]!;
}

const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));

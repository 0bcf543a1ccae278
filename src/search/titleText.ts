/**
 * How a title becomes searchable text, the same way for the index and for the query, so that the
 * two always meet: compatibility forms folded (fullwidth ２ is 2, ｓ is s), accents and tone marks
 * dropped (Jiàn is jian), lower case, apostrophes dropped inside words as WordPress slugs drop
 * them (Emperor’s is emperors).
 */
export function foldTitle(text: string): string {
  return text
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/['’‘`]/g, '')
    .toLowerCase();
}

const WORD = /[\p{L}\p{N}]+/gu;
// Chinese (and Japanese, Korean) titles have no spaces between words, so their characters are
// indexed one by one and in pairs: a query of any part of the name meets the pairs it contains.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_OR_NOT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** The words of a folded text, CJK runs split apart from letters and digits beside them. */
export function titleWords(folded: string): string[] {
  const words: string[] = [];
  for (const [run] of folded.matchAll(WORD)) words.push(...(run.match(CJK_OR_NOT) ?? []));
  return words;
}

export function isCjk(word: string): boolean {
  return CJK.test(word);
}

/** Index terms of a text: each word, and each CJK run as its characters and character pairs. */
export function titleTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of titleWords(foldTitle(text))) {
    if (!isCjk(word)) {
      terms.push(word);
      continue;
    }
    const characters = [...word];
    terms.push(...characters);
    for (let index = 0; index + 1 < characters.length; index++) terms.push(`${characters[index]}${characters[index + 1]}`);
  }
  return terms;
}

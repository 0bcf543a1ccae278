import type { AnswersStore } from '../../catalog/answersStore.js';
import type { AnswerFile } from './answerFile.js';
import { servableUntil, type AnswerLifetimes } from './storedAnswer.js';

export interface SqliteAnswersOptions {
  file: AnswerFile;
  lifetimes: AnswerLifetimes;
  /** The cache's clock, which fetchedAt reads. */
  now: () => number;
}

/**
 * One instance: every answer fetched is kept in DATA_DIR/answers.sqlite, and one kept there that may
 * still be served stands in for a fetch (after a restart above all). The local LRU already fetches
 * each page once at a time.
 */
export function createSqliteAnswers({ file, lifetimes, now }: SqliteAnswersOptions): AnswersStore {
  return {
    async load(key, fetchHere, { newerThan = 0 }) {
      const kept = file.read(key);
      if (kept !== undefined && kept.fetchedAt > newerThan && servableUntil(kept, lifetimes) > now()) return kept;
      const fetched = await fetchHere();
      file.write(key, fetched);
      return fetched;
    },
    kept: async (key) => file.read(key),
    drop: async (key) => file.delete(key),
  };
}

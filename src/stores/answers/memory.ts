import type { SharedAnswers } from '../../catalog/answersStore.js';

/** One instance has no one to share with: the local LRU already fetches each page once at a time. */
export function createMemoryAnswers(): SharedAnswers {
  return { load: (_key, fetchHere) => fetchHere() };
}

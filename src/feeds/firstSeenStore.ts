/** When the service first saw each feed entry that has no release date of its own. */
export interface FirstSeenStore {
  /**
   * For each candidate, the moment remembered for its id: the one stored before if there is one,
   * else the candidate's, which is stored (the first writer wins, across instances too). Each id
   * named is marked as seen at `now`, so that what no feed shows any more can be forgotten.
   */
  claim(candidates: readonly FirstSeen[], now: number): Promise<Map<string, number>>;
}

export interface FirstSeen {
  id: string;
  /** Unix milliseconds. */
  at: number;
}

/** How long an id no feed shows any more is remembered, and how many at most. */
export interface FirstSeenBounds {
  /** An id not seen for this long is forgotten; far longer than any feed keeps an entry. */
  keepMs: number;
  /** Past this many ids, the ones seen longest ago go first. */
  maxEntries: number;
}

export const FIRST_SEEN_BOUNDS: FirstSeenBounds = { keepMs: 90 * 86_400_000, maxEntries: 50_000 };

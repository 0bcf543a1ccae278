/** When the service first saw each entry that has no release date of its own. */
export interface FirstSeenStore {
  /**
   * For each candidate, the moment remembered for its id: the one stored before if there is one,
   * else the candidate's, which is stored (first writer wins, across instances too). Each id
   * named is marked as seen now, so that what no feed shows any more can be forgotten.
   */
  claim(candidates: readonly FirstSeen[], now: number): Promise<Map<string, number>>;
  close(): Promise<void>;
}

export interface FirstSeen {
  id: string;
  /** Unix milliseconds. */
  at: number;
}

/** What is remembered, and for how long an id no feed shows any more is kept. */
export interface FirstSeenBounds {
  /** An id not seen for this long is forgotten. */
  keepMs: number;
  /** At most this many ids; past it, the ones seen longest ago go first. */
  maxEntries: number;
}

export const FIRST_SEEN_BOUNDS: FirstSeenBounds = { keepMs: 90 * 86_400_000, maxEntries: 50_000 };

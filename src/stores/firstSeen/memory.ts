import type { FirstSeen, FirstSeenBounds } from '../../feeds/firstSeenStore.js';

export interface Remembered {
  firstSeen: number;
  lastSeen: number;
}

/**
 * First-seen times in this instance's memory, bounded: ids are kept in the order they were last
 * seen, so the ones no feed shows any more are at the front and go first. The file store keeps
 * these on disk; the Redis store uses them while Redis is down.
 */
export class RememberedEntries {
  private readonly entries = new Map<string, Remembered>();

  constructor(private readonly bounds: FirstSeenBounds) {}

  get size(): number {
    return this.entries.size;
  }

  /** Each candidate's remembered time (its own when new), every one marked as seen at `now`; the new ones are returned apart. */
  claim(candidates: readonly FirstSeen[], now: number): { times: Map<string, number>; added: FirstSeen[] } {
    const times = new Map<string, number>();
    const added: FirstSeen[] = [];
    for (const { id, at } of candidates) {
      const known = this.entries.get(id);
      const firstSeen = known?.firstSeen ?? at;
      if (known === undefined) added.push({ id, at });
      this.set(id, { firstSeen, lastSeen: now });
      times.set(id, firstSeen);
    }
    this.forget(now);
    return { times, added };
  }

  /** Puts back an entry as it was remembered (read from a file); later calls count as seen later. */
  restore(id: string, remembered: Remembered): void {
    this.set(id, remembered);
  }

  /** Every remembered entry, seen longest ago first. */
  list(): [string, Remembered][] {
    return [...this.entries];
  }

  /** Drops the ids not seen within `keepMs` of `now`, and the oldest past `maxEntries`. */
  forget(now: number): void {
    for (const [id, { lastSeen }] of this.entries) {
      if (this.entries.size <= this.bounds.maxEntries && now - lastSeen <= this.bounds.keepMs) break;
      this.entries.delete(id);
    }
  }

  private set(id: string, remembered: Remembered): void {
    // Re-inserted so that the Map's order stays the order of last sight.
    this.entries.delete(id);
    this.entries.set(id, remembered);
  }
}

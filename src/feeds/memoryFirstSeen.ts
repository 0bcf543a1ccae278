import type { FirstSeen, FirstSeenBounds, FirstSeenStore } from './firstSeen.js';

export interface Remembered {
  firstSeen: number;
  lastSeen: number;
}

/**
 * First-seen times in this instance's memory, bounded: ids are kept in the order they were last
 * seen, so the ones no feed shows any more are at the front and go first.
 */
export class RememberedEntries {
  private readonly entries = new Map<string, Remembered>();

  constructor(private readonly bounds: FirstSeenBounds) {}

  get size(): number {
    return this.entries.size;
  }

  /** Each candidate's remembered time (its own when new), every one marked as seen now; the new ones are returned apart. */
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

  /** Puts an entry back as it was remembered (read from a file), in the order given. */
  restore(id: string, remembered: Remembered): void {
    this.set(id, remembered);
  }

  /** Every remembered entry, seen longest ago first. */
  list(): [string, Remembered][] {
    return [...this.entries];
  }

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

/** First-seen times in memory only: for tests and a service whose feeds need not survive a restart. */
export function memoryFirstSeen(bounds: FirstSeenBounds): FirstSeenStore {
  const entries = new RememberedEntries(bounds);
  return {
    claim: async (candidates, now) => entries.claim(candidates, now).times,
    close: async () => undefined,
  };
}

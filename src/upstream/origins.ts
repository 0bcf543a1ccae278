import type { Logger } from '../config/logger.js';
import type { UpstreamMonitor } from './monitor.js';
import type { OriginStore, PersistedOrigin } from './originStore.js';

// The upstream origins in the order they are tried (UPSTREAM_BASE_URLS, plus adopted move
// targets in the place of the origin that moved), which one is in use, and which are set aside.
// Deciding whether a candidate is good is the client's job (it fetches and validates it).

export interface OriginPool {
  current(): string;
  /** Every origin, in order, and why it is set aside (null when it is not). */
  list(): { origin: string; setAside: string | null }[];
  /**
   * Origins to try instead of the current one, in order: `preferred` (a redirect target) first,
   * then those not set aside, or set aside longer than the recheck interval ago.
   */
  candidates(preferred?: string): string[];
  setAside(origin: string, reason: string): void;
  /** Makes `origin` the current one and persists the choice. */
  adopt(origin: string, reason: string, movedFrom?: string): Promise<void>;
  /** Origins ahead of the current one in the order, once per recheck interval; else none. */
  dueForRecheck(): string[];
  /** Another instance adopted `choice`: use it too (when the configuration knows it) and persist it, without sharing it back. */
  follow(choice: PersistedOrigin): Promise<void>;
}

export interface OriginPoolOptions {
  configured: readonly string[];
  store: OriginStore;
  /** Tells the other instances of an adoption (REDIS_URL); they `follow` it. */
  share?: (choice: PersistedOrigin) => Promise<void>;
  /** How long a set-aside origin is skipped, and how often earlier origins are retried. */
  recheckMs: number;
  monitor: UpstreamMonitor;
  logger: Logger;
  now?: () => number;
}

interface Entry {
  origin: string;
  setAside: { reason: string; at: number } | null;
}

export function createOriginPool(options: OriginPoolOptions): OriginPool {
  const now = options.now ?? Date.now;
  const entries: Entry[] = options.configured.map((origin) => ({ origin, setAside: null }));
  let current = entries[0]?.origin ?? '';
  let lastRecheck = now();

  function place(origin: string, movedFrom: string | null): void {
    if (entries.some((entry) => entry.origin === origin)) return;
    const at = movedFrom === null ? -1 : entries.findIndex((entry) => entry.origin === movedFrom);
    entries.splice(at < 0 ? entries.length : at, 0, { origin, setAside: null });
  }

  // A persisted or shared choice counts only while the configuration still names it, or the origin it moved from.
  const applies = (choice: PersistedOrigin) =>
    options.configured.includes(choice.origin) || (choice.movedFrom !== null && options.configured.includes(choice.movedFrom));
  const persisted = options.store.read();
  if (persisted !== null && applies(persisted)) {
    place(persisted.origin, persisted.movedFrom);
    current = persisted.origin;
  }
  const persist = (choice: PersistedOrigin) =>
    options.store.write(choice).catch((error: unknown) => options.logger.error({ err: error }, 'could not persist the upstream origin'));

  const list = () =>
    entries.map((entry) => ({ origin: entry.origin, setAside: entry.origin === current ? null : (entry.setAside?.reason ?? null) }));
  const announce = () => options.monitor.originsChanged(current, list());
  announce();

  /** Makes `origin` the current one (placed in the order, no longer set aside); returns the previous one. */
  function switchTo(origin: string, movedFrom: string | null): string {
    place(origin, movedFrom);
    (entries.find((candidate) => candidate.origin === origin) as Entry).setAside = null;
    const previous = current;
    current = origin;
    announce();
    return previous;
  }

  return {
    current: () => current,
    list,
    candidates(preferred) {
      const usable = entries
        .filter((entry) => entry.origin !== current && entry.origin !== preferred)
        .filter((entry) => entry.setAside === null || now() - entry.setAside.at >= options.recheckMs)
        .map((entry) => entry.origin);
      return preferred !== undefined && preferred !== current ? [preferred, ...usable] : usable;
    },
    setAside(origin, reason) {
      const entry = entries.find((candidate) => candidate.origin === origin);
      if (entry === undefined) return;
      // While an origin stays down, every request that tries it sets it aside again: one log line
      // when its state changes, not one per request.
      const changed = entry.setAside?.reason !== reason;
      entry.setAside = { reason, at: now() };
      if (changed) options.logger.warn({ origin, reason }, 'upstream origin set aside');
      announce();
    },
    async adopt(origin, reason, movedFrom) {
      const previous = switchTo(origin, movedFrom ?? null);
      options.logger.warn({ from: previous, to: origin, reason }, 'upstream origin adopted');
      const choice = { origin, movedFrom: movedFrom ?? null, reason, adoptedAt: new Date(now()).toISOString() };
      await Promise.all([persist(choice), options.share?.(choice)]);
    },
    async follow(choice) {
      if (choice.origin === current || !applies(choice)) return;
      const previous = switchTo(choice.origin, choice.movedFrom);
      options.logger.warn({ from: previous, to: choice.origin, reason: choice.reason }, 'upstream origin adopted by another instance');
      await persist(choice);
    },
    dueForRecheck() {
      if (now() - lastRecheck < options.recheckMs) return [];
      lastRecheck = now();
      const index = entries.findIndex((entry) => entry.origin === current);
      return entries.slice(0, Math.max(0, index)).map((entry) => entry.origin);
    },
  };
}

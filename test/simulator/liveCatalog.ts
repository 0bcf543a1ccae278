import { lastModified, SERIES, type Series } from './dataset.js';

/**
 * The series one simulated site lists right now. Page builders read it through their context, tests
 * read it to compute what the pages show, and the simulator's controls change it while it runs
 * (a series added, updated, removed, a new episode). What pages derive from it (sorted lists, the
 * latest-episode feed) is computed on first use and kept until the next change, so a crawl of a
 * large catalog costs one sort per list, not one per page.
 */
export class LiveCatalog {
  #series: Series[];
  #bySlug: Map<string, Series>;
  #derived = new Map<string, unknown>();
  #version = 0;

  constructor(series: readonly Series[]) {
    this.#series = [...series].sort((a, b) => a.id - b.id);
    this.#bySlug = new Map(this.#series.map((item) => [item.slug, item]));
  }

  /** Every listed series, by post id (creation order). */
  get series(): readonly Series[] {
    return this.#series;
  }

  /** Grows by one with every change. */
  get version(): number {
    return this.#version;
  }

  find(slug: string): Series | null {
    return this.#bySlug.get(slug) ?? null;
  }

  /** The most recent change of any series (the top of the update-ordered list); '' when the catalog is empty. */
  newestUpdate(): string {
    return this.#series.reduce((newest, item) => (lastModified(item) > newest ? lastModified(item) : newest), '');
  }

  /** `build()` once per `key` until the catalog changes. Keys come from request parameters, so the memo is bounded. */
  derived<T>(key: string, build: () => T): T {
    if (this.#derived.has(key)) return this.#derived.get(key) as T;
    const value = build();
    if (this.#derived.size >= 500) this.#derived.clear();
    this.#derived.set(key, value);
    return value;
  }

  /** Adds a series, or replaces the one with the same slug. */
  put(series: Series): void {
    const at = this.#series.findIndex((item) => item.slug === series.slug);
    if (at >= 0) this.#series.splice(at, 1);
    const insertAt = this.#series.findIndex((item) => item.id > series.id);
    this.#series.splice(insertAt < 0 ? this.#series.length : insertAt, 0, series);
    this.#bySlug.set(series.slug, series);
    this.#changed();
  }

  /** False when no such series is listed. */
  remove(slug: string): boolean {
    const at = this.#series.findIndex((item) => item.slug === slug);
    if (at < 0) return false;
    this.#series.splice(at, 1);
    this.#bySlug.delete(slug);
    this.#changed();
    return true;
  }

  #changed(): void {
    this.#version += 1;
    this.#derived.clear();
  }
}

/** The default dataset, never changed: what module-level helpers answer for when no catalog is given. */
export const DEFAULT_CATALOG = new LiveCatalog(SERIES);

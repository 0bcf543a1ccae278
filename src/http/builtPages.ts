import type { Application } from 'express';
import { LRUCache } from 'lru-cache';
import type { OriginRule } from './requestOrigin.js';

// Pages and documents are public and count against no quota, so each is built once per change
// (at its first request, or again after a period for one that shows live figures) and sent as
// bytes: a flood of them costs a lookup and a write per answer, not a template render, and stays
// off everyone else's latency.

/** Renders `view` to a string, as res.render would, for a body built once and sent many times. */
export function renderView(app: Application, view: string, locals: object): Promise<string> {
  return new Promise((resolve, reject) => app.render(view, locals, (error, html) => (error ? reject(error) : resolve(html))));
}

/**
 * A text built once with `mark` where a per-answer value goes, split there, and joined with each
 * value. The value must be text that the builder's escaping leaves as it is (an origin from
 * originOf, a request id, a UUID): it goes in unescaped.
 */
export class MarkedText {
  readonly #pieces: string[];

  constructor(text: string, mark: string) {
    this.#pieces = text.split(mark);
  }

  with(value: string): string {
    return this.#pieces.join(value);
  }
}

// A reserved name (RFC 2606) stands for the origin: no escaping changes it.
const ORIGIN_MARK = 'https://origin.invalid';
// How many origins' copies are kept: the one or few names the service is reached at. A client
// sending a new Host each time only costs one join per answer.
const ORIGINS_KEPT = 16;

/**
 * A body built on the service's origin, as bytes for each origin. With PUBLIC_URL there is one
 * origin and one body. Without it, `build` runs once with a placeholder origin, and each origin a
 * request names gets the placeholder replaced, kept for the last few origins.
 */
export class OriginBodies {
  readonly #marked: MarkedText | undefined;
  readonly #fixed: Buffer | undefined;
  readonly #byOrigin = new LRUCache<string, Buffer>({ max: ORIGINS_KEPT });

  private constructor(marked: MarkedText | undefined, fixed: Buffer | undefined) {
    this.#marked = marked;
    this.#fixed = fixed;
  }

  static async build(rule: OriginRule, build: (origin: string) => string | Promise<string>): Promise<OriginBodies> {
    if (rule.publicUrl !== undefined) return new OriginBodies(undefined, Buffer.from(await build(rule.publicUrl)));
    return new OriginBodies(new MarkedText(await build(ORIGIN_MARK), ORIGIN_MARK), undefined);
  }

  /** The body for `origin` (originOf's, for the rule the bodies were built with). */
  for(origin: string): Buffer {
    if (this.#fixed !== undefined) return this.#fixed;
    let body = this.#byOrigin.get(origin);
    if (body === undefined) {
      body = Buffer.from(this.#marked!.with(origin));
      this.#byOrigin.set(origin, body);
    }
    return body;
  }
}

/**
 * The value built for each key, by the `build` of the key's first call; for a small, fixed set of
 * keys (a form's prefilled choices, an error page's code). A failed build is not kept, so the next
 * call tries again.
 */
export function builtOncePerKey<T>(): (key: string, build: () => Promise<T>) => Promise<T> {
  const built = new Map<string, Promise<T>>();
  return (key, build) => {
    let value = built.get(key);
    if (value === undefined) {
      const current = build();
      built.set(key, current);
      current.catch(() => {
        if (built.get(key) === current) built.delete(key);
      });
      value = current;
    }
    return value;
  };
}

/**
 * The last value `build` produced, built again on the first call `periodMs` after it was started;
 * concurrent calls share one build. A failed build is not kept, so the next call tries again.
 */
export function builtAtMostEvery<T>(periodMs: number, now: () => number): (build: () => Promise<T>) => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return (build) => {
    const at = now();
    // A clock that went back (a test's, or a system clock set back) starts a new period too.
    if (last === undefined || at - last.at >= periodMs || at < last.at) {
      const value = build();
      const current = { at, value };
      last = current;
      value.catch(() => {
        if (last === current) last = undefined;
      });
    }
    return last.value;
  };
}

/**
 * `build`'s value, built after the call and shared by every call waiting for it, with builds
 * started at least `minIntervalMs` apart (machine time, not a test's clock): for a body that must
 * be fresh (each answer is built after its request arrived) but costs too much to build per
 * request. A flood waits for the next build instead of adding builds; a lone request waits for
 * none when the last build is older than the interval.
 */
export function pacedBuild<T>(minIntervalMs: number, build: () => Promise<T>): () => Promise<T> {
  let next: Promise<T> | undefined;
  let lastStart = Number.NEGATIVE_INFINITY;
  return () => {
    if (next === undefined) {
      const wait = Math.max(0, lastStart + minIntervalMs - performance.now());
      next = new Promise<void>((resolve) => setTimeout(resolve, wait)).then(() => {
        next = undefined;
        lastStart = performance.now();
        return build();
      });
    }
    return next;
  };
}

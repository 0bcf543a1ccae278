import { createHash } from 'node:crypto';
import type { AnswerCall, CatalogAnswer, NoSideEffects } from '../catalog/answer.js';
import type { CatalogResult } from '../catalog/answerLifecycle.js';
import type { CatalogService } from '../catalog/service.js';
import type { Canonical } from './drafts.js';
import type { FirstSeenStore } from './firstSeenStore.js';
import { releaseDateTime, type DraftFeed, type FeedEntry, type FeedFormat, type FeedModel } from './model.js';
import { renderFeed, type FeedLocation } from './render.js';
import type { CatalogBody, FeedDefinition } from './table.js';

interface RenderedFeed {
  body: Buffer;
  /** Strong: the bytes themselves. */
  etag: string;
}

/** A feed as it is answered: built from a catalog answer, and rendered. */
export interface FeedAnswer {
  /** The catalog answer the feed was built from (its cache status, age and TTL). */
  result: CatalogResult;
  model: FeedModel;
  rendered: RenderedFeed;
}

export interface FeedService {
  /**
   * The feed of the catalog's answer for `input` (the one held, or one fetch): built once per
   * answer, rendered once per format and location. Without side effects: the feed of the answer
   * held now, when it is already built and rendered in `format` at `location`.
   */
  answer: AnswerCall<
    [feed: FeedDefinition, input: Record<string, unknown>, format: FeedFormat, location: FeedLocation],
    FeedAnswer,
    Promise<FeedAnswer>
  >;
}

export interface FeedServiceDeps {
  catalog: CatalogService;
  firstSeen: FirstSeenStore;
  canonical: Canonical;
  now: () => number;
}

// Distinct base URLs (Host headers) a model is rendered for; enough for a proxy name and a few aliases.
const RENDERINGS_PER_MODEL = 16;

/**
 * Dates a draft: release dates as the page gives them, every other entry by the moment it was
 * first seen. Entries new together are a second apart in page order, so that readers sorting by
 * date keep the site's order; times are whole seconds, as RSS writes them.
 * @internal exported for the tests: its unit test dates drafts at chosen moments, which the feed routes do not allow.
 */
export async function datedFeed(draft: DraftFeed, ttlSeconds: number, firstSeen: FirstSeenStore, now: number): Promise<FeedModel> {
  const seen = new Set<string>();
  const entries = draft.entries.filter((entry) => !seen.has(entry.id) && seen.add(entry.id));
  const nowSeconds = Math.floor(now / 1000) * 1000;
  const candidates = entries
    .filter((entry) => entry.releaseDate === null)
    .map((entry, index) => ({ id: entry.id, at: nowSeconds - index * 1000 }));
  const times = candidates.length === 0 ? new Map<string, number>() : await firstSeen.claim(candidates, now);
  const dated = entries.map(({ releaseDate, ...entry }): FeedEntry => ({
    ...entry,
    date: releaseDate === null ? new Date(times.get(entry.id) ?? nowSeconds) : releaseDateTime(releaseDate),
  }));
  // A feed without entries yet (a series announced before its first episode) is dated by when the
  // service first saw the feed itself, so its date neither reads 1970 nor moves on each build.
  const newest =
    dated.length > 0
      ? Math.max(...dated.map((entry) => entry.date.getTime()))
      : ((await firstSeen.claim([{ id: draft.siteUrl, at: nowSeconds }], now)).get(draft.siteUrl) ?? nowSeconds);
  return { ...draft, entries: dated, updated: new Date(newest), ttlSeconds };
}

export function createFeedService({ catalog, firstSeen, canonical, now }: FeedServiceDeps): FeedService {
  // One model per catalog answer: the first-seen store is asked once per answer, not per request.
  const models = new WeakMap<CatalogAnswer, Promise<FeedModel>>();
  // The same models once built, for a lookup without side effects, which answers without waiting.
  const builtModels = new WeakMap<CatalogAnswer, FeedModel>();
  const renderings = new WeakMap<FeedModel, Map<string, RenderedFeed>>();

  function modelOf(feed: FeedDefinition, answer: CatalogAnswer): Promise<FeedModel> {
    let model = models.get(answer);
    if (model === undefined) {
      const body = JSON.parse(answer.body.toString('utf8')) as CatalogBody;
      model = datedFeed(feed.draft(body, canonical), answer.ttlSeconds, firstSeen, now());
      model.then(
        (built) => builtModels.set(answer, built),
        // A failed build is tried again by the next request, never kept.
        () => models.delete(answer),
      );
      models.set(answer, model);
    }
    return model;
  }

  const renderingKey = (format: FeedFormat, location: FeedLocation) => `${format} ${location.self}`;

  function render(model: FeedModel, format: FeedFormat, location: FeedLocation): RenderedFeed {
    let byLocation = renderings.get(model);
    if (byLocation === undefined) renderings.set(model, (byLocation = new Map<string, RenderedFeed>()));
    const key = renderingKey(format, location);
    let rendered = byLocation.get(key);
    if (rendered === undefined) {
      const body = Buffer.from(renderFeed(model, format, location));
      rendered = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
      if (byLocation.size >= RENDERINGS_PER_MODEL) byLocation.clear();
      byLocation.set(key, rendered);
    }
    return rendered;
  }

  async function built(
    feed: FeedDefinition,
    input: Record<string, unknown>,
    format: FeedFormat,
    location: FeedLocation,
  ): Promise<FeedAnswer> {
    const result = await catalog.answer(feed.endpoint, input);
    const model = await modelOf(feed, result.answer);
    return { result, model, rendered: render(model, format, location) };
  }

  function answer(
    feed: FeedDefinition,
    input: Record<string, unknown>,
    format: FeedFormat,
    location: FeedLocation,
    options: NoSideEffects,
  ): FeedAnswer | undefined;
  function answer(feed: FeedDefinition, input: Record<string, unknown>, format: FeedFormat, location: FeedLocation): Promise<FeedAnswer>;
  function answer(
    feed: FeedDefinition,
    input: Record<string, unknown>,
    format: FeedFormat,
    location: FeedLocation,
    options?: NoSideEffects,
  ): FeedAnswer | Promise<FeedAnswer> | undefined {
    if (options === undefined) return built(feed, input, format, location);
    const result = catalog.answer(feed.endpoint, input, options);
    const model = result && builtModels.get(result.answer);
    const rendered = model && renderings.get(model)?.get(renderingKey(format, location));
    return result && model && rendered && { result, model, rendered };
  }

  return { answer };
}

import { z } from 'zod';

/** One path of the site as this service learned it: what, how, when. */
const LearnedPath = z.object({
  /** "/seri/", "/anime/", or "/" for series pages at the site's root. */
  path: z.string(),
  /** How it was learned, in words: which page said so. */
  how: z.string(),
  learnedAt: z.string(),
  /**
   * Series only: the slug of a series page seen under the path. When the site answers 404 for
   * another series, this page says whether the path still serves pages (a missing series) or moved.
   */
  witness: z.string().nullable(),
});

/** What one origin of the site taught: its series path and its list path, each null until learned. */
export const OriginPaths = z.object({
  origin: z.string(),
  series: LearnedPath.nullable(),
  list: LearnedPath.nullable(),
});
export type OriginPaths = z.infer<typeof OriginPaths>;

/**
 * Where learned paths are kept per origin, so that a restart, and with REDIS_URL every other
 * instance, uses them without a lookup of its own (src/stores/sitePaths/).
 */
export interface SitePathsStore {
  /** What is kept for `origin`; null when nothing is, or the store cannot be read now. Never throws. */
  read(origin: string): Promise<OriginPaths | null>;
  /** Keeps `paths` for its origin; a failure is logged or counted, never thrown. */
  write(paths: OriginPaths): Promise<void>;
}

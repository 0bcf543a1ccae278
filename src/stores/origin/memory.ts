import type { SharedOrigin } from '../../upstream/originStore.js';

/** One instance has no one to tell or follow: its choice lives in its pool and DATA_DIR file. */
export function createMemoryOrigin(): SharedOrigin {
  return { publish: async () => undefined, follow: () => undefined };
}

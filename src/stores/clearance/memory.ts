import type { SharedClearances } from '../../upstream/challenge/clearanceStore.js';

/** One instance solves for itself: the challenge gate already runs one solve per origin at a time. */
export function createMemoryClearances(): SharedClearances {
  return { solveOnce: async (_origin, _used, solve) => ({ clearance: await solve(), solvedHere: true }) };
}

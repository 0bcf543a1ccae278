import type { Clearance } from './clearance.js';

/** Challenge clearances shared by instances, so that the wall sees one solve, not one per instance. */
export interface SharedClearances {
  /**
   * A clearance for `origin` newer than `used`: one another instance stored, else the result of
   * `solve`, run by one instance at a time across all of them.
   */
  solveOnce(
    origin: string,
    used: Clearance | undefined,
    solve: () => Promise<Clearance>,
  ): Promise<{ clearance: Clearance; solvedHere: boolean }>;
}

import type { PersistedOrigin } from '../../upstream/originStore.js';
import type { OriginPool } from '../../upstream/origins.js';

/** The upstream origin one instance adopts (a failover, a move), made every instance's. */
export interface SharedOrigin {
  /** Tells the other instances of this instance's choice; a failure is counted, never thrown. */
  publish(choice: PersistedOrigin): Promise<void>;
  /** From now on, `pool` follows the choices of the other instances. */
  follow(pool: OriginPool): void;
}

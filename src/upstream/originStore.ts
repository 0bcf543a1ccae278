import { z } from 'zod';

/** The origin this instance adopted (a failover, a move), as it is kept across restarts and told to other instances. */
export const PersistedOrigin = z.object({
  origin: z.string(),
  /** The configured origin that redirected here, when this origin was a move target. */
  movedFrom: z.string().nullable(),
  reason: z.string(),
  adoptedAt: z.string(),
});
export type PersistedOrigin = z.infer<typeof PersistedOrigin>;

/** Where this instance keeps its adopted origin, so that a restart does not start from the configured order again. */
export interface OriginStore {
  /** Synchronous: read once, while the app is assembled. */
  read(): PersistedOrigin | null;
  write(choice: PersistedOrigin): Promise<void>;
}

/** The upstream origin one instance adopts (a failover, a move), made every instance's. */
export interface SharedOrigin {
  /** Tells the other instances of this instance's choice; a failure is counted, never thrown. */
  publish: (choice: PersistedOrigin) => Promise<void>;
  /** From now on, `pool` follows the choices of the other instances. */
  follow(pool: OriginFollower): void;
}

/** What takes another instance's choice (the origin pool). */
export interface OriginFollower {
  /** Another instance adopted `choice`: use it too (when the configuration knows it) and persist it, without sharing it back. */
  follow(choice: PersistedOrigin): Promise<void>;
}

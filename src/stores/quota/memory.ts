import { MemoryStore } from 'express-rate-limit';

/** express-rate-limit's memory store: exact under concurrency, and it drops windows that have ended. */
export function createMemoryQuota(): MemoryStore {
  return new MemoryStore();
}

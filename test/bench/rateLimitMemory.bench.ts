// Memory of the rate limiter's store with many distinct clients: RSS and heap before and after
// 100,000 distinct keys, and after their window has ended. Prints figures, asserts nothing.
// Run: node --expose-gc --import tsx test/bench/rateLimitMemory.bench.ts
import { MemoryStore } from 'express-rate-limit';

const KEYS = 100_000;
const WINDOW_MS = 2_000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function snapshot() {
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  return { rssMB: megabytes(rss), heapMB: megabytes(heapUsed) };
}

const store = new MemoryStore();
store.init({ windowMs: WINDOW_MS } as Parameters<MemoryStore['init']>[0]);
const before = snapshot();
for (let i = 0; i < KEYS; i++) {
  // The shape of the keys the limiter uses: IPv4 addresses, or an IPv6 /56 prefix.
  await store.increment(i % 2 === 0 ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` : `2001:db8:${i.toString(16)}::/56`);
}
const filled = snapshot();
// The store rotates its maps once per window; after two windows every expired key is gone.
await new Promise((resolve) => setTimeout(resolve, WINDOW_MS * 2 + 200));
const expired = snapshot();
store.shutdown();

console.table([
  { stage: 'empty store', ...before },
  { stage: `${KEYS.toLocaleString('en')} distinct keys`, ...filled },
  { stage: 'after the windows ended', ...expired },
]);
console.log(`per key: ~${Math.round(((filled.heapMB - before.heapMB) * 1024 * 1024) / KEYS)} bytes of heap`);

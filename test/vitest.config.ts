import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/browser/**/*.test.ts'],
    // Integration tests wait on a loopback simulator with injected latency and hangs.
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

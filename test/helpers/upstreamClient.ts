import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/config/logger.js';
import { createMetrics } from '../../src/metrics.js';
import { createMemoryClearances } from '../../src/stores/clearance/memory.js';
import { createFileOrigin } from '../../src/stores/origin/file.js';
import { createMemoryOrigin } from '../../src/stores/origin/memory.js';
import { createChromiumSolver } from '../../src/upstream/challenge/chromium.js';
import { createUpstreamClient, type UpstreamClientOptions, type UpstreamTiming } from '../../src/upstream/client.js';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The test stacks' upstream timing: retries 10 ms apart, not 250 ms, as what a test checks is what a
 * retry does (how many, and then what), not when; breaker and cooldown as given.
 */
export function shortRetries(timing: UpstreamTiming = {}): UpstreamTiming {
  return { retryInitialDelayMs: 10, ...timing };
}

/** A fresh temporary DATA_DIR. */
export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'upstream-test-'));
}

/** What one instance without REDIS_URL shares: nothing, through the memory implementations. */
export function unshared(): UpstreamClientOptions['shared'] {
  return { clearances: createMemoryClearances(), origin: createMemoryOrigin() };
}

/** The resilient client over `origins`, silent, with its own metrics registry and DATA_DIR unless given. */
export function testClient(origins: readonly string[], overrides: Partial<UpstreamClientOptions> = {}) {
  const metrics = overrides.metrics ?? createMetrics();
  const client = createUpstreamClient({
    origins,
    timeoutMs: 3000,
    originFile: createFileOrigin(tempDataDir(), createLogger('silent')),
    logger: createLogger('silent'),
    shared: unshared(),
    ...shortRetries(),
    ...overrides,
    metrics,
  });
  return { client, metrics };
}

/** Debian's Chromium, driven by playwright-core, as production runs it. */
export function chromiumSolver(options: { timeoutMs?: number; executablePath?: string } = {}) {
  return createChromiumSolver({
    executablePath: options.executablePath ?? CHROMIUM_PATH,
    timeoutMs: options.timeoutMs ?? 15_000,
    idleMs: 60_000,
    logger: createLogger('silent'),
  });
}

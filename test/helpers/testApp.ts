import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App, type AppDeps } from '../../src/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger, type Logger } from '../../src/config/logger.js';
import type { Config } from '../../src/config/schema.js';
import type { ProbeSchedule } from '../../src/status/schedule.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../simulator/server.js';
import { shortRetries } from './upstreamClient.js';

export interface TestStack {
  /** The service's request listener, the API's door in front of Express, as main.ts serves it. */
  app: App;
  simulator: Simulator;
  config: Config;
  close(): Promise<void>;
}

/**
 * No status probe unless a test asks for one: the real schedule's probe at start would add an
 * upstream fetch to the counts of every test that is not about the status page.
 */
export const noProbe: ProbeSchedule = () => ({ stop: () => undefined });

/** One for every stack: a logger that writes nothing holds nothing of an app's, and each pino made costs a stack trace. */
const silent = createLogger('silent');

/** The real app wired to a fresh loopback simulator and a temporary DATA_DIR. */
export async function startTestStack(
  options: {
    simulator?: SimulatorOptions;
    /** A simulator that outlives the stack (a restart of the service against the same site); not closed with it. */
    sharedSimulator?: Simulator;
    env?: Record<string, string>;
    /** Silent unless a test reads the log. */
    logger?: Logger;
  } & Pick<
    AppDeps,
    'upstream' | 'now' | 'scheduleProbe' | 'crawlLockTiming' | 'crawlPasses' | 'catalogSyncEveryMs' | 'probeIntervalMs' | 'upstreamTiming'
  > = {},
): Promise<TestStack> {
  const simulator = options.sharedSimulator ?? (await startSimulator(options.simulator));
  const config = loadConfig({
    UPSTREAM_BASE_URLS: simulator.origin,
    UPSTREAM_TIMEOUT_S: '3',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'catalog-test-')),
    LOG_LEVEL: 'silent',
    // Suites make many requests from one address; the rate-limit tests set their own quota.
    RATE_LIMIT_MAX: '100000',
    // No browser unless a test asks for one: a challenge then answers 503 at once.
    SOLVER: 'off',
    // No background crawl unless a test asks for one: its upstream fetches would change every
    // other test's request counts.
    CRAWL_ENABLED: 'false',
    ...options.env,
  });
  const { env: _env, simulator: _simulator, sharedSimulator: _shared, logger, scheduleProbe, upstreamTiming, ...deps } = options;
  const app = createApp({
    ...deps,
    config,
    logger: logger ?? silent,
    scheduleProbe: scheduleProbe ?? noProbe,
    upstreamTiming: shortRetries(upstreamTiming),
  });
  return {
    app,
    simulator,
    config,
    close: async () => {
      await app.close();
      if (options.sharedSimulator === undefined) await simulator.close();
    },
  };
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, for clients that need a real URL: Chromium, curl, command-line tools. */
  baseUrl: string;
  close(): Promise<void>;
}

/** The app listening on a free loopback port. */
export async function listenOnLoopback(app: App): Promise<LoopbackServer> {
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
    },
  };
}

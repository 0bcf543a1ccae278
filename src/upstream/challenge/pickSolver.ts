import { accessSync, constants } from 'node:fs';
import type { Logger } from '../../config/logger.js';
import { createChromiumSolver } from './chromium.js';
import { createFlareSolverrSolver } from './flaresolverr.js';
import { SOLVE_TIMEOUT_MS, type ChallengeSolver } from './solver.js';

// Apart from solver.ts, so that the solvers can import the interface they implement without a cycle.

/** SOLVER as the config reads it: a FlareSolverr service is named by its URL. */
type SolverSetting = { kind: 'auto' | 'chromium' | 'off' } | { kind: 'flaresolverr'; url: string };

export interface SolverConfig {
  SOLVER: SolverSetting;
  CHROMIUM_PATH: string;
}

/** The browser closes after this long without a solve or a browser-page fetch. */
const BROWSER_IDLE_MS = 5 * 60_000;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The solver the configuration asks for. `auto` is the local Chromium when its binary is there, else none (challenges answer 503). */
export function createSolver(config: SolverConfig, logger: Logger): ChallengeSolver | null {
  const timeoutMs = SOLVE_TIMEOUT_MS;
  const chromium = () => createChromiumSolver({ executablePath: config.CHROMIUM_PATH, timeoutMs, idleMs: BROWSER_IDLE_MS, logger });
  const flaresolverr = (url: string) => createFlareSolverrSolver({ url, timeoutMs });
  const setting = config.SOLVER;
  switch (setting.kind) {
    case 'off':
      return null;
    case 'chromium':
      return chromium();
    case 'flaresolverr':
      return flaresolverr(setting.url);
    case 'auto':
      if (isExecutable(config.CHROMIUM_PATH)) return chromium();
      logger.warn(
        { chromiumPath: config.CHROMIUM_PATH },
        'no challenge solver: Chromium not found at CHROMIUM_PATH and SOLVER names no FlareSolverr',
      );
      return null;
  }
}

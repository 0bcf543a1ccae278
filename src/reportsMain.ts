// `npm run reports`: assembles the stores from the configuration, as src/main.ts does for the service, and runs the operators' view of the reports (src/reports/cli.ts).
import { ConfigError, loadConfig } from './config/load.js';
import { createLogger } from './config/logger.js';
import { createMetrics } from './metrics.js';
import { settled } from './redis/settled.js';
import { runReportsCli } from './reports/cli.js';
import { createSharedStores } from './stores/index.js';

/** How long the listing waits for REDIS_URL to connect before it lists this DATA_DIR's reports alone. */
const REDIS_CONNECT_WAIT_MS = 3_000;

try {
  const config = loadConfig(process.env);
  // Warnings (a skipped line, Redis unreachable) go to stderr, so stdout stays clean for --json.
  const logger = createLogger('warn', { fd: 2 });
  const stores = createSharedStores({ config, logger, metrics: createMetrics(), now: Date.now });
  if (stores.redis !== undefined) await settled(stores.redis, REDIS_CONNECT_WAIT_MS);
  try {
    process.exitCode = await runReportsCli(process.argv.slice(2), stores.reports, {
      out: (text) => process.stdout.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
    });
  } finally {
    await stores.close();
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
  }
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}

import { once } from 'node:events';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config/load.js';
import { createLogger } from './config/logger.js';
import { warnOfRetiredVariables } from './config/retired.js';
import { dataDirProblem } from './files/dataDir.js';

const SHUTDOWN_GRACE_MS = 10_000;

/** A bad variable stops the start with the message that names it, not a stack trace. */
function exitOnConfigError<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const config = exitOnConfigError(() => loadConfig(process.env));
// A DATA_DIR the service cannot write stops the start with one line, not a store's stack trace.
const dataDirFailure = dataDirProblem(config.DATA_DIR);
if (dataDirFailure !== undefined) {
  console.error(dataDirFailure);
  process.exit(1);
}
const logger = createLogger(config.LOG_LEVEL);
warnOfRetiredVariables(process.env, logger);
const app = exitOnConfigError(() => createApp({ config, logger }));
const server = app.listen(config.PORT, config.HOST);
await once(server, 'listening');
logger.info({ port: config.PORT, host: config.HOST, upstream: config.UPSTREAM_BASE_URLS }, 'listening');

// On SIGTERM/SIGINT stop accepting, let in-flight requests finish, then exit; force it after a grace period.
async function shutdown(signal: string): Promise<void> {
  logger.info({ signal }, 'shutting down');
  const forced = setTimeout(() => {
    logger.warn('in-flight requests did not finish in time; closing their connections');
    server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  forced.unref();
  server.closeIdleConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  clearTimeout(forced);
  await app.close();
  logger.info('stopped');
  // The logger writes asynchronously; let it finish before the process ends.
  await new Promise<void>((resolve) => logger.flush(() => resolve()));
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    shutdown(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

import { once } from 'node:events';
import { createApp } from '../../src/app.js';
import type { CrawlLockTiming } from '../../src/crawler/crawlLock.js';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/config/logger.js';

// The service in its own process, configured from the environment as src/main.ts is, with the crawl
// lock's timing given as JSON in the first argument: a test that kills it waits for the shortened
// lock to expire, not for the production one. It logs "listening" once it serves, as main.ts does.

const crawlLockTiming = JSON.parse(process.argv[2]!) as CrawlLockTiming;
const config = loadConfig(process.env);
const logger = createLogger(config.LOG_LEVEL);
const server = createApp({ config, logger, crawlLockTiming }).listen(config.PORT, config.HOST);
await once(server, 'listening');
logger.info({ port: config.PORT }, 'listening');

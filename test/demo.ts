// `npm run demo`: the real service against the bundled upstream simulator, so anyone can try the
// API offline. The simulator listens on 127.0.0.1:4000 (SIMULATOR_PORT), the API on PORT (3000);
// 0 for either takes a free port, and the lines below name the one taken.
// `--profile NAME` (or SIM_PROFILE) picks the theme profile the simulator serves (test/simulator/variant.ts).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createApp } from '../src/app.js';
import { endpoints } from '../src/catalog/endpoints/index.js';
import { exampleFor } from '../src/openapi/examples/index.js';
import { feeds } from '../src/feeds/table.js';
import { urlWithParameters } from '../src/pages/serviceFacts.js';
import { loadConfig } from '../src/config/load.js';
import { createLogger } from '../src/config/logger.js';
import { SERIES } from './simulator/dataset.js';
import { episodeSlug, episodesOf } from './simulator/episodes.js';
import { startSimulator } from './simulator/server.js';
import { SERIES_STUDIOS } from './simulator/taxonomies.js';
import { isVariantName, VARIANT_NAMES, variantFromEnv } from './simulator/variant.js';

const { values } = parseArgs({ options: { profile: { type: 'string' } } });
if (values.profile !== undefined && !isVariantName(values.profile)) {
  console.error(`--profile must be one of ${VARIANT_NAMES.join(', ')}, got ${values.profile}`);
  process.exit(2);
}
const variant = isVariantName(values.profile) ? values.profile : variantFromEnv();

// A site of the real one's size, which the crawler reads without pausing between pages (the
// simulator's own latency paces it): the first pass takes a few minutes, long enough to watch.
const simulator = await startSimulator({ port: Number(process.env.SIMULATOR_PORT ?? 4000), variant, latencyMs: 120, catalogSize: 1500 });
const config = loadConfig({ CRAWL_INTERVAL_S: '0', ...process.env, UPSTREAM_BASE_URLS: simulator.origin });
const app = createApp({ config, logger: createLogger(config.LOG_LEVEL) });
const server = app.listen(config.PORT, config.HOST);
await once(server, 'listening');

const base = `http://localhost:${(server.address() as AddressInfo).port}`;
console.log(`\nUpstream simulator: ${simulator.origin} (theme profile ${variant})\nAPI:                ${base}`);
console.log(`Pages:              ${base}/  ${base}/docs  ${base}/report\n\nTry:`);
// The reference's examples name the real site's series; the simulator has its own catalog.
const demoSeries = SERIES.find((series) => series.status === 'Ongoing' && series.latestEpisode !== null)!;
const [latestEpisode] = episodesOf(demoSeries);
const simulatorSlugs: Record<string, string> = {
  '/catalog/series/{slug}': demoSeries.slug,
  '/catalog/episode/{slug}': episodeSlug(latestEpisode!),
  '/catalog/studios/{slug}': SERIES_STUDIOS[0]!.slug,
};
for (const endpoint of endpoints) {
  const { parameters } = exampleFor(endpoint.path);
  const slug = simulatorSlugs[endpoint.path];
  console.log(`  curl -s '${base}${urlWithParameters(endpoint.path, slug === undefined ? parameters : { ...parameters, slug })}'`);
}
console.log('\nFeeds (Atom; .rss and .json too), for a feed reader or a bot:');
for (const feed of feeds)
  console.log(
    `  curl -s '${base}${urlWithParameters(`${feed.path}.atom`, feed.params.shape.slug === undefined ? {} : { slug: demoSeries.slug })}'`,
  );
console.log(`\nThe whole catalog, once the crawler's first pass is done (its progress: ${base}/status):`);
console.log(`  curl -s '${base}/export/catalog.json' | jq '.count'`);
console.log(`  curl -s '${base}/export/catalog.jsonl' | head -n 1`);
console.log('\nCtrl+C stops both.\n');

process.once('SIGINT', () => {
  server.close();
  server.closeAllConnections();
  void Promise.all([app.close(), simulator.close()]).then(() => process.exit(0));
});

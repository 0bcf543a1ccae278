// `npm run demo`: the real service against the bundled upstream simulator, so anyone can try the
// API offline. The simulator listens on 127.0.0.1:4000 (SIMULATOR_PORT), the API on PORT (3000).
import { once } from 'node:events';
import { createApp } from '../src/app.js';
import { endpoints } from '../src/catalog/endpoints/index.js';
import { exampleFor } from '../src/catalog/examples/index.js';
import { urlWithParameters } from '../src/pages/serviceFacts.js';
import { loadConfig } from '../src/config/load.js';
import { createLogger } from '../src/config/logger.js';
import { startSimulator } from './simulator/server.js';

const simulator = await startSimulator({ port: Number(process.env.SIMULATOR_PORT ?? 4000), latencyMs: 120 });
const config = loadConfig({ ...process.env, UPSTREAM_BASE_URLS: simulator.origin });
const app = createApp({ config, logger: createLogger(config.LOG_LEVEL) });
const server = app.listen(config.PORT, config.HOST);
await once(server, 'listening');

const base = `http://localhost:${config.PORT}`;
console.log(`\nUpstream simulator: ${simulator.origin}\nAPI:                ${base}`);
console.log(`Pages:              ${base}/  ${base}/docs  ${base}/report\n\nTry:`);
for (const endpoint of endpoints) {
  console.log(`  curl -s '${base}${urlWithParameters(endpoint.path, exampleFor(endpoint.path).parameters)}'`);
}
console.log('\nCtrl+C stops both.\n');

process.once('SIGINT', () => {
  server.close();
  server.closeAllConnections();
  void Promise.all([app.close(), simulator.close()]).then(() => process.exit(0));
});

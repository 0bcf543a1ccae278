import { parseArgs } from 'node:util';
import { startSimulator } from './server.js';
import type { VariantName } from './variant.js';

/**
 * Standalone simulator for people and benchmarks:
 *   npx tsx test/simulator/main.ts [--port 4000] [--host 127.0.0.1] [--variant classic] [--latency 300] [--catalog-size 1500]
 */

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    variant: { type: 'string', default: 'cafe' },
    latency: { type: 'string', default: '0' },
    'catalog-size': { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const port = Number(values.port);
const latencyMs = Number(values.latency);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0-65535, got ${values.port}`);
if (!Number.isFinite(latencyMs) || latencyMs < 0) fail(`--latency must be a number of ms >= 0, got ${values.latency}`);
if (values.variant !== 'cafe' && values.variant !== 'classic') fail(`--variant must be cafe or classic, got ${values.variant}`);
const variant: VariantName = values.variant;
const catalogSize = values['catalog-size'] === undefined ? undefined : Number(values['catalog-size']);
if (catalogSize !== undefined && !(Number.isInteger(catalogSize) && catalogSize >= 96)) fail(`--catalog-size must be a whole number >= 96, got ${values['catalog-size']}`);

const simulator = await startSimulator({ host: values.host, port, variant, latencyMs, ...(catalogSize === undefined ? {} : { catalogSize }) });
console.log(simulator.origin);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void simulator.close().then(() => process.exit(0));
  });
}

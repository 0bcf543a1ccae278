import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { SITE_DOWN_MODES, startSimulator, type SiteDownMode } from './server.js';
import { isVariantName, VARIANT_NAMES, variantFromEnv } from './variant.js';

/**
 * Standalone simulator for people and benchmarks:
 *   npx tsx test/simulator/main.ts [--port 4000] [--host 127.0.0.1] [--profile moe] [--latency 300] [--catalog-size 1500] [--down MODE]
 * While it runs, a line on standard input takes the whole site down or brings it back:
 * `down unavailable`, `down challenge`, `down timeout`, `down layout-change`, or `up`.
 */

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    profile: { type: 'string' },
    latency: { type: 'string', default: '0' },
    'catalog-size': { type: 'string' },
    down: { type: 'string' },
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
if (values.profile !== undefined && !isVariantName(values.profile))
  fail(`--profile must be one of ${VARIANT_NAMES.join(', ')}, got ${values.profile}`);
const variant = isVariantName(values.profile) ? values.profile : variantFromEnv();
const catalogSize = values['catalog-size'] === undefined ? undefined : Number(values['catalog-size']);
if (catalogSize !== undefined && !(Number.isInteger(catalogSize) && catalogSize >= 96))
  fail(`--catalog-size must be a whole number >= 96, got ${values['catalog-size']}`);

const isSiteDownMode = (mode: string | undefined): mode is SiteDownMode =>
  (SITE_DOWN_MODES as readonly (string | undefined)[]).includes(mode);
if (values.down !== undefined && !isSiteDownMode(values.down))
  fail(`--down must be one of ${SITE_DOWN_MODES.join(', ')}, got ${values.down}`);

const simulator = await startSimulator({
  host: values.host,
  port,
  variant,
  latencyMs,
  ...(catalogSize === undefined ? {} : { catalogSize }),
  ...(isSiteDownMode(values.down) ? { siteDown: values.down } : {}),
});
console.log(simulator.origin);

createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, mode] = line.trim().split(/\s+/);
  if (command === 'up') simulator.setSiteDown(null);
  else if (command === 'down' && isSiteDownMode(mode)) simulator.setSiteDown(mode);
  else {
    console.error(`say "down MODE" (${SITE_DOWN_MODES.join(', ')}) or "up"`);
    return;
  }
  console.error(command === 'up' ? 'site up' : `site down: ${mode}`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void simulator.close().then(() => process.exit(0));
  });
}

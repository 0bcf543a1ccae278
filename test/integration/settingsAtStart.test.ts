import { afterAll, expect, it } from 'vitest';
import { ServiceExitedError, startService, type ServiceProcess } from '../bench/processes.js';
import { startSimulator, type Simulator } from '../simulator/server.js';

// The real service (src/main.ts in a child process) started with variables it no longer reads (it
// starts, warns once for each, and runs on the values that replaced them), and with an override of no
// endpoint (it stops, naming the variable). A child's start takes seconds on a busy machine, hence the
// longer limit.

let site: Simulator | undefined;
let service: ServiceProcess | undefined;

afterAll(async () => {
  await service?.stop();
  await site?.close();
});

it('starts with retired variables set, warns once for each, naming what replaced it, and ignores their values', async () => {
  site = await startSimulator();
  service = await startService({ UPSTREAM_BASE_URLS: site.origin, CACHE_TTL_HOME_S: '120', UPSTREAM_BREAKER_THRESHOLD: '1' });
  const home = await fetch(`${service.origin}/catalog/home`);
  expect(home.status).toBe(200);
  // Fresh for 300 s, not 120: max-age counts down from that as the answer ages (the status probe at
  // start may have fetched the home page a moment before).
  expect(home.headers.get('cache-control')).toBe(`public, max-age=${300 - Number(home.headers.get('age'))}`);
  expect((await fetch(`${service.origin}/catalog/home`)).headers.get('x-cache')).toBe('HIT');

  const warnings = service.logs().filter((line) => line.level === 40);
  expect(warnings.map(({ variable, msg }) => ({ variable, msg }))).toEqual([
    {
      variable: 'CACHE_TTL_HOME_S',
      msg:
        "CACHE_TTL_HOME_S is no longer read and is ignored: the endpoint table holds each endpoint's freshness (listed on /docs); " +
        'to keep this one, set CACHE_TTL_OVERRIDES=/catalog/home=120',
    },
    {
      variable: 'UPSTREAM_BREAKER_THRESHOLD',
      msg: "UPSTREAM_BREAKER_THRESHOLD is no longer read and is ignored: now fixed: an origin's breaker opens after 5 failed page fetches in a row",
    },
  ]);
}, 60_000);

it('stops the start, naming CACHE_TTL_OVERRIDES, on an override of no endpoint', async () => {
  const refused = await startService({
    UPSTREAM_BASE_URLS: 'http://127.0.0.1:9',
    CACHE_TTL_OVERRIDES: '/catalog/home=60,/catalog/nothing=5',
  }).then(
    (started) => {
      service = started;
      return null;
    },
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(ServiceExitedError);
  expect((refused as ServiceExitedError).exitCode).toBe(1);
  expect((refused as ServiceExitedError).stderr).toMatch(
    /^Invalid configuration:\n {2}CACHE_TTL_OVERRIDES: \/catalog\/nothing is no endpoint; the endpoints are \/catalog\/home, /,
  );
}, 60_000);

// `npx tsx test/bench/redis.ts`: what REDIS_URL costs. (1) Cache-hit throughput of one instance
// without and with Redis (the quota then counts in Redis: one round trip per request). (2) Redis
// round trips per request on a hit, a miss, a hit of another instance's answer and a 429, seen with
// MONITOR around each single request. Asserts nothing.
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { startRedisServer } from '../helpers/redisServer.js';
import { startSimulator } from '../simulator/server.js';
import { startService } from './processes.js';

const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const HIT_PATH = '/catalog/popular-series';

const redisServer = await startRedisServer();
const simulator = await startSimulator({ latencyMs: 300 });
const inspector = new Redis(redisServer.url);

async function hitRate(env: Record<string, string>): Promise<{ rps: number; p50: number; p99: number }> {
  const service = await startService({ RATE_LIMIT_MAX: '1000000', UPSTREAM_BASE_URLS: simulator.origin, ...env });
  await fetch(service.origin + HIT_PATH);
  await autocannon({ url: service.origin + HIT_PATH, connections: 50, duration: 3 });
  const run = await autocannon({ url: service.origin + HIT_PATH, connections: 50, duration: LOAD_SECONDS });
  await service.stop();
  if (run.non2xx > 0 || run.errors > 0) throw new Error(`${run.non2xx} non-2xx and ${run.errors} errors`);
  return { rps: Math.round(run.requests.average), p50: run.latency.p50, p99: run.latency.p99 };
}

/** The Redis commands (round trips) one request cost, the service's own work after the answer included. */
async function commandsOf(request: () => Promise<number>): Promise<{ status: number; commands: string[] }> {
  const commands: string[] = [];
  const monitor = await inspector.monitor();
  // Commands a Lua script runs inside Redis are no round trips of their own, and the connection's
  // heartbeat PING is no request's.
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const command = String(args[0]).toUpperCase();
    if (source !== 'lua' && command !== 'PING') commands.push(command);
  });
  const status = await request();
  // The lock's release and the cache write may follow the answer by a moment.
  await new Promise((resolve) => setTimeout(resolve, 200));
  monitor.disconnect();
  return { status, commands };
}

console.log(`1. cache-hit throughput, one instance, 50 connections, ${LOAD_SECONDS} s`);
const memoryOnly = await hitRate({});
const withRedis = await hitRate({ REDIS_URL: redisServer.url });
console.log(`   memory only: ${memoryOnly.rps} req/s, p50/p99 ${memoryOnly.p50}/${memoryOnly.p99} ms`);
console.log(
  `   with Redis:  ${withRedis.rps} req/s, p50/p99 ${withRedis.p50}/${withRedis.p99} ms (${((withRedis.rps / memoryOnly.rps) * 100).toFixed(0)} %)`,
);

console.log('2. Redis round trips per request (RATE_LIMIT_MAX=3, one client)');
const env = { RATE_LIMIT_MAX: '3', UPSTREAM_BASE_URLS: simulator.origin, REDIS_URL: redisServer.url };
const [a, b] = await Promise.all([startService(env), startService(env)]);
const get = (origin: string) => () => fetch(`${origin}/catalog/search?q=round%20trips`).then((response) => response.status);
// Connected first (until then an instance counts in memory), then each instance's first request
// loads the quota's two scripts (SCRIPT LOAD): out of the count.
for (const service of [a, b]) {
  const redisState = async () => ((await (await fetch(`${service.origin}/health/upstream`)).json()) as { redis: string }).redis;
  while ((await redisState()) !== 'up') await new Promise((resolve) => setTimeout(resolve, 20));
  await fetch(`${service.origin}/catalog/genres`);
}
await inspector.flushall();
for (const [label, request] of [
  ['miss (A fetches)', get(a.origin)],
  ['hit (A, its memory)', get(a.origin)],
  ["hit of A's answer (B, from Redis)", get(b.origin)],
  ['429 (A)', get(a.origin)],
] as const) {
  const { status, commands } = await commandsOf(request);
  console.log(`   ${label}: HTTP ${status}, ${commands.length} round trips: ${commands.join(', ')}`);
}

await Promise.all([a.stop(), b.stop()]);
inspector.disconnect();
await simulator.close();
await redisServer.stop();

import { once } from 'node:events';
import { mkdtempSync, openSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../../src/app.js';
import { endpoints } from '../../../src/catalog/endpoints/index.js';
import { loadConfig } from '../../../src/config/load.js';
import { createLogger } from '../../../src/config/logger.js';
import { apiQuota } from '../../../src/http/middleware/rateLimit.js';
import { observeAnswer } from '../../../src/http/middleware/requestMetrics.js';
import { ageSecondsOf, API_HEADERS, cacheHeaders, writeRepresentation } from '../../../src/http/apiAnswer.js';
import { createMetrics } from '../../../src/metrics.js';
import { TrafficRecorder } from '../../../src/status/traffic.js';
import { createMemoryQuota } from '../../../src/stores/quota/memory.js';
import { startSimulator } from '../../simulator/server.js';
import type { BenchReport } from '../report.js';
import { HIT_PATH, NO_QUOTA } from './settings.js';

/** Requests per round; a figure is its fastest round, as the machine's other work only ever slows one down. */
const ROUND_REQUESTS = 2_000;
const ROUNDS = 15;
/**
 * Requests per turn of the event loop: after each, the turn's deferred work runs (the request log's
 * lines and their finished hooks, setImmediate), inside the time measured, as the service's own turns
 * answer some 50 connections' requests and then run it.
 */
const TURN_REQUESTS = 50;

// One socket for every request object: nothing here writes to it, and a socket each would be most of what is measured.
const socket = new Socket();

function fresh(url: string): { req: IncomingMessage; res: ServerResponse } {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = url;
  req.headers = { host: '127.0.0.1', 'user-agent': 'bench' };
  return { req, res: new ServerResponse(req) };
}

/** µs per call of `step` on a new request and response for `url`, beyond making them: the fastest of ROUNDS rounds. */
async function microseconds(
  step: (req: IncomingMessage, res: ServerResponse) => unknown,
  url = '/catalog/ongoing-series?page=2',
): Promise<number> {
  const fastest = async (run: (req: IncomingMessage, res: ServerResponse) => unknown) => {
    let best = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      for (let request = 0; request < ROUND_REQUESTS; request++) {
        const { req, res } = fresh(url);
        await run(req, res);
        if (request % TURN_REQUESTS === TURN_REQUESTS - 1) await new Promise((resolve) => setImmediate(resolve));
      }
      best = Math.min(best, ((performance.now() - started) * 1000) / ROUND_REQUESTS);
    }
    return best;
  };
  return Math.max(0, (await fastest(step)) - (await fastest(() => undefined)));
}

/**
 * The whole door's cached hit of the hit section's path, in this process: the app's listener on real
 * node request/response objects, from the remembered resolution to the log line, the metrics and
 * the status page's count. The answer is fetched once from the simulator first.
 */
async function doorHitMicroseconds(): Promise<number> {
  const simulator = await startSimulator({ latencyMs: 0 });
  const config = loadConfig({
    ...NO_QUOTA,
    UPSTREAM_BASE_URLS: simulator.origin,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'catalog-costs-')),
    CRAWL_ENABLED: 'false',
    SOLVER: 'off',
  });
  const app = createApp({ config, logger: createLogger('info', { fd: openSync('/dev/null', 'w') }) });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const miss = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${HIT_PATH}`);
  await miss.arrayBuffer();
  try {
    return await microseconds((req, res) => app(req, res), HIT_PATH);
  } finally {
    server.close();
    await app.close();
    await simulator.close();
  }
}

/**
 * What each piece of the door's cached hit costs per request (µs, called on real node
 * request/response objects), and the whole door, so that a slow one shows. The socket write is not included.
 */
async function measureMiddlewareCosts(): Promise<Array<{ piece: string; microseconds: number }>> {
  const config = loadConfig({ RATE_LIMIT_MAX: '1000000', CRAWL_ENABLED: 'false' });
  const quota = apiQuota(config, () => '127.0.0.1', createMemoryQuota());
  const logger = createLogger('info', { fd: openSync('/dev/null', 'w') });
  const metrics = createMetrics();
  const endpoint = endpoints.find((entry) => entry.path === '/catalog/ongoing-series')!;
  const answer = {
    answer: { body: Buffer.alloc(8 * 1024, 'x'), etag: 'W/"abcdefghijklmnopqrstuvwxyz0"', fetchedAt: Date.now(), ttlSeconds: 600 },
    cacheStatus: 'HIT' as const,
  };
  const traffic = new TrafficRecorder(Date.now);
  const line = { requestId: 'x', route: endpoint.path, method: 'GET', url: endpoint.path, status: 200, durationMs: 0.4, cache: 'HIT' };
  const pieces: Array<[string, (req: IncomingMessage, res: ServerResponse) => unknown]> = [
    ['request id (UUID)', () => crypto.randomUUID()],
    ['rate limit (count in the store)', (req) => quota.count(req)],
    [
      'request log line (pino)',
      (req) =>
        logger.info(
          { requestId: 'x', route: endpoint.path, method: req.method, url: req.url, status: 200, durationMs: 0.4, cache: 'HIT' },
          'request',
        ),
    ],
    ['request metrics (prom-client)', () => observeAnswer(metrics, endpoint.path, 'GET', 200, 0.4)],
    ["status page's traffic count", () => traffic.record(line)],
    [
      'every header in one writeHead + 304 check + end',
      (req, res) =>
        writeRepresentation(
          req,
          res,
          {
            body: answer.answer.body,
            contentType: 'application/json; charset=utf-8',
            etag: answer.answer.etag,
            headers: cacheHeaders(answer, ageSecondsOf(answer.answer, Date.now())),
            cacheStatus: 'HIT',
          },
          [...API_HEADERS, 'X-Request-Id', 'x'],
        ),
    ],
  ];
  const rows: Array<{ piece: string; microseconds: number }> = [];
  for (const [piece, step] of pieces) rows.push({ piece, microseconds: await microseconds(step) });
  rows.push({ piece: 'the whole door, in the app (the pieces above and the rest)', microseconds: await doorHitMicroseconds() });
  return rows;
}

/** What each piece of the hit path costs per request, for reading (the socket write excluded). */
export async function middlewareCostSection(report: BenchReport): Promise<void> {
  report.section(`what each piece of a cached hit costs per request (µs, fastest of ${ROUNDS} rounds; the socket write excluded)`);
  for (const { piece, microseconds } of await measureMiddlewareCosts())
    report.figure(`cached hit: ${piece}`, `${microseconds.toFixed(1)} µs`);
}

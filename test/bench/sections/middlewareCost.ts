import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import { pino } from 'pino';
import { endpoints } from '../../../src/catalog/endpoints/index.js';
import { cacheKey } from '../../../src/catalog/answerLifecycle.js';
import { loadConfig } from '../../../src/config/load.js';
import { apiQuota } from '../../../src/http/middleware/rateLimit.js';
import { observeAnswer } from '../../../src/http/middleware/requestMetrics.js';
import { ageSecondsOf, API_HEADERS, cacheHeaders, writeRepresentation } from '../../../src/http/apiAnswer.js';
import { createMetrics } from '../../../src/metrics.js';
import { createMemoryQuota } from '../../../src/stores/quota/memory.js';
import type { BenchReport } from '../report.js';

const ITERATIONS = 20_000;

function fresh(): { req: IncomingMessage; res: ServerResponse } {
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = '/catalog/ongoing-series?page=2';
  req.headers = { host: '127.0.0.1', 'user-agent': 'bench' };
  return { req, res: new ServerResponse(req) };
}

async function microseconds(step: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<number> {
  for (const { req, res } of Array.from({ length: 2000 }, fresh)) await step(req, res);
  const pairs = Array.from({ length: ITERATIONS }, fresh);
  const started = performance.now();
  for (const { req, res } of pairs) await step(req, res);
  return ((performance.now() - started) * 1000) / ITERATIONS;
}

/**
 * What each piece of the door's cached hit costs per request (CPU µs, called on real node
 * request/response objects), so that a slow one shows. The socket write is not included.
 */
async function measureMiddlewareCosts(): Promise<Array<{ piece: string; microseconds: number }>> {
  const config = loadConfig({ RATE_LIMIT_MAX: '1000000', CRAWL_ENABLED: 'false' });
  const quota = apiQuota(config, () => '127.0.0.1', createMemoryQuota());
  const logger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: true }));
  const metrics = createMetrics();
  const endpoint = endpoints.find((entry) => entry.path === '/catalog/ongoing-series')!;
  const answer = {
    answer: { body: Buffer.alloc(8 * 1024, 'x'), etag: 'W/"abcdefghijklmnopqrstuvwxyz0"', fetchedAt: Date.now(), ttlSeconds: 600 },
    cacheStatus: 'HIT' as const,
  };
  const pieces: Array<[string, (req: IncomingMessage, res: ServerResponse) => unknown]> = [
    ['query parse + zod validation', (req) => endpoint.query.safeParse(parseQueryString(req.url!.split('?')[1] ?? ''))],
    ['cache key', () => cacheKey(endpoint, { page: 2 })],
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
  const baseline = await microseconds(() => undefined);
  const rows: Array<{ piece: string; microseconds: number }> = [];
  for (const [piece, step] of pieces) rows.push({ piece, microseconds: Math.max(0, (await microseconds(step)) - baseline) });
  return rows;
}

/** What each piece of the hit path costs per request, for reading (the socket write excluded). */
export async function middlewareCostSection(report: BenchReport): Promise<void> {
  report.section('what each piece of a cached hit costs per request (CPU µs; the socket write excluded)');
  for (const { piece, microseconds } of await measureMiddlewareCosts())
    report.figure(`cached hit: ${piece}`, `${microseconds.toFixed(1)} µs`);
}

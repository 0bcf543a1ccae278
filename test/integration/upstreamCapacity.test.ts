import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../src/contract/schemas.js';
import { ServiceBusyError, UpstreamBadResponseError, UpstreamTimeoutError } from '../../src/upstream/errors.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';
import { testClient } from '../helpers/upstreamClient.js';
import { startSimulator, type Simulator } from '../simulator/server.js';

// Our own queue in front of the upstream is ours: a burst of misses from one client waits for a
// connection, and neither that wait nor its refusal counts as the site's failure. Only what the
// simulator does (its answers, its silence) moves the breaker and /health/upstream.

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

async function stackWith(options: Parameters<typeof startTestStack>[0]): Promise<TestStack> {
  const stack = await startTestStack(options);
  opened.push(stack);
  return stack;
}

async function site(latencyMs: number): Promise<Simulator> {
  const simulator = await startSimulator({ latencyMs });
  opened.push(simulator);
  return simulator;
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );
const search = (i: number | string) => `/catalog/search?q=${encodeURIComponent(`burst ${i}`)}`;

describe('a burst of slow misses from one client', () => {
  it('is served whole, leaves the breaker closed and /health/upstream up, and another client is served', async () => {
    // 61 misses on 16 connections: four rounds of the site's latency, the last ones waiting three.
    const stack = await stackWith({ simulator: { latencyMs: 250 }, env: { UPSTREAM_TIMEOUT_S: '10', TRUST_PROXY: '1' } });
    const api = request(stack.app);
    const burst = Array.from({ length: 60 }, (_, i) =>
      api
        .get(search(i))
        .set('X-Forwarded-For', '198.51.100.1')
        .then((response) => response.status),
    );
    // Asked while the burst waits for connections.
    const other = api.get('/catalog/search?q=another').set('X-Forwarded-For', '198.51.100.2');
    const statuses = await Promise.all(burst);
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect((await other).status).toBe(200);
    expect(stack.simulator.hitCount('/?s=')).toBe(61);
    const health = await api.get('/health/upstream');
    expect(health.body).toMatchObject({ health: 'ok', breaker: { state: 'closed' }, lastFailure: null });
  }, 60_000);

  it('past what the connections can serve in time, answers 503 SERVICE_BUSY with Retry-After; the site stays "ok"', async () => {
    const simulator = await site(400);
    const { client } = testClient([simulator.origin], { breakerThreshold: 2, connections: { turns: 2, waitMs: 100 } });
    const stack = await stackWith({ upstream: client });
    const api = request(stack.app);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => api.get(search(i))));
    const busy = answers.filter((response) => response.status === 503);
    expect(answers.filter((response) => response.status === 200)).toHaveLength(2);
    expect(busy).toHaveLength(6);
    for (const response of busy) {
      expect(ErrorEnvelope.parse(response.body).error.code).toBe('SERVICE_BUSY');
      expect(response.headers['retry-after']).toBe('1');
    }
    // Only the two that got a connection reached the site.
    expect(simulator.hitCount('/?s=')).toBe(2);
    expect(client.status()).toMatchObject({ health: 'ok', breaker: { state: 'closed' }, lastFailure: null });
  });
});

describe('the page deadline', () => {
  it('starts when the request is sent, not while it waits for a connection', async () => {
    const simulator = await site(500);
    // One connection, a 900 ms deadline: the second page waits ~500 ms, then takes ~500 ms itself.
    const { client } = testClient([simulator.origin], { timeoutMs: 900, connections: { turns: 1, waitMs: 5000 } });
    const pages = await Promise.all([client.fetchPage('/'), client.fetchPage('/ongoing/')]);
    expect(pages.map((page) => page.status)).toEqual([200, 200]);
    expect(client.status().lastFailure).toBeNull();
  });
});

describe('the simulator alone decides that the site fails', () => {
  it('a site that does not answer in time, or answers 502, opens the breaker; busy refusals before did not', async () => {
    // The one connection is held (150 ms) well past the 50 ms a waiting fetch may wait for it.
    const simulator = await site(150);
    const { client } = testClient([simulator.origin], {
      timeoutMs: 600,
      maxRetries: 0,
      breakerThreshold: 3,
      connections: { turns: 1, waitMs: 50 },
    });
    const refusals = await Promise.all(Array.from({ length: 6 }, (_, i) => rejection(client.fetchPage(`/?s=${i}`))));
    expect(refusals.filter((error) => error instanceof ServiceBusyError)).toHaveLength(5);
    expect(client.status()).toMatchObject({ health: 'ok', breaker: { state: 'closed' } });

    simulator.setFaults([{ kind: 'hang', times: 2 }]);
    expect(await rejection(client.fetchPage('/a/'))).toBeInstanceOf(UpstreamTimeoutError);
    expect(await rejection(client.fetchPage('/b/'))).toBeInstanceOf(UpstreamTimeoutError);
    expect(client.status()).toMatchObject({ health: 'degraded', breaker: { state: 'closed' } });
    simulator.setFaults([{ kind: 'status', status: 502 }]);
    expect(await rejection(client.fetchPage('/c/'))).toBeInstanceOf(UpstreamBadResponseError);
    expect(client.status()).toMatchObject({ health: 'down', breaker: { state: 'open' } });
  });
});

import { describe, expect, it } from 'vitest';
import { createConnectionTurns } from '../../../src/upstream/connectionTurns.js';
import { ServiceBusyError } from '../../../src/upstream/errors.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('connection turns', () => {
  it('runs at most `turns` fetches, and gives a freed turn to the longest waiting user', async () => {
    const turns = createConnectionTurns({ turns: 2, backgroundTurns: 1, waitMs: 60_000, maxWaiting: 10 });
    const first = await turns.take('user');
    await turns.take('user');
    const order: string[] = [];
    const third = turns.take('user').then((release) => (order.push('third'), release));
    const fourth = turns.take('user').then((release) => (order.push('fourth'), release));
    await settle();
    expect(order).toEqual([]);
    first();
    await settle();
    expect(order).toEqual(['third']);
    (await third)();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
  });

  it('gives a background fetch a turn only while no user waits, and at most `backgroundTurns` of them', async () => {
    const turns = createConnectionTurns({ turns: 3, backgroundTurns: 1, waitMs: 60_000, maxWaiting: 10 });
    const releaseBackground = await turns.take('background');
    const order: string[] = [];
    // A second background fetch waits although a turn is free: the background share is one.
    const secondBackground = turns.take('background').then((release) => (order.push('background'), release));
    const users = [await turns.take('user'), await turns.take('user')];
    const waitingUser = turns.take('user').then((release) => (order.push('user'), release));
    await settle();
    expect(order).toEqual([]);
    // The freed background turn goes to the waiting user, not to the waiting background fetch.
    releaseBackground();
    await settle();
    expect(order).toEqual(['user']);
    users[0]!();
    await settle();
    expect(order).toEqual(['user', 'background']);
    (await waitingUser)();
    (await secondBackground)();
  });

  it('refuses as busy a fetch that waits past waitMs, and one past maxWaiting at once', async () => {
    const turns = createConnectionTurns({ turns: 1, backgroundTurns: 1, waitMs: 50, maxWaiting: 1 });
    const release = await turns.take('user');
    const waiting = turns.take('user').catch((error: unknown) => error);
    const overflow = await turns.take('user').catch((error: unknown) => error);
    expect(overflow).toBeInstanceOf(ServiceBusyError);
    expect(overflow).toMatchObject({ retryAfterSeconds: 1, message: expect.stringContaining('1 fetches already wait') });
    expect(await waiting).toBeInstanceOf(ServiceBusyError);
    // The refused waiter left the queue: the next one is not refused for its sake, and a freed turn is taken.
    const next = turns.take('user');
    release();
    expect(typeof (await next)).toBe('function');
  });
});

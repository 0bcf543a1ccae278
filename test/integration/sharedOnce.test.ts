import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { RedisConnection } from '../../src/redis/connection.js';
import { sharedOnce, type SharedOnceOptions } from '../../src/redis/sharedOnce.js';
import { redisForSuite } from '../helpers/redisSuite.js';

// One producer across instances, against a real redis-server, with two connections standing for
// two instances: a holder that fails leaves the lock to a waiter, and a waiter never waits past
// its deadline.

const { connect: instance } = redisForSuite();

class GaveUp extends Error {}

/** Until the first caller holds the lock, so that the next one is the waiter. */
async function untilLocked(redis: RedisConnection, name: string): Promise<void> {
  while ((await redis.client.exists(`lock:${name}`)) === 0) await sleep(5);
}

function once(
  redis: RedisConnection,
  name: string,
  produce: () => Promise<string>,
  waitMs = 5_000,
  read = async () => (await redis.client.get(`result:${name}`)) ?? undefined,
): Promise<{ value: string; producedHere: boolean }> {
  const options: SharedOnceOptions<string> = {
    redis,
    use: 'lock',
    lockKey: `lock:${name}`,
    lockMs: 5_000,
    read,
    produce,
    write: async (value) => {
      await redis.client.set(`result:${name}`, value, 'PX', 5_000);
    },
    waitUntil: Date.now() + waitMs,
    onGiveUp: () => new GaveUp(`gave up on ${name}`),
  };
  return sharedOnce(options);
}

describe('sharedOnce', () => {
  it('lets a waiter take the lock over and produce when the holder fails, storing no error', async () => {
    const [one, other] = [await instance(), await instance()];
    const produced: string[] = [];
    const failing = once(one, 'takeover', async () => {
      produced.push('one');
      await sleep(100);
      throw new Error('upstream said 502');
    });
    await untilLocked(other, 'takeover');
    const waiting = once(other, 'takeover', async () => {
      produced.push('other');
      return 'answer of other';
    });
    await expect(failing).rejects.toThrow('upstream said 502');
    expect(await waiting).toEqual({ value: 'answer of other', producedHere: true });
    expect(produced).toEqual(['one', 'other']);
    expect(await one.client.get('result:takeover')).toBe('answer of other');
    expect(await one.client.get('lock:takeover')).toBeNull();
  });

  it('gives a waiter its answer from the holder, and the deadline error when the holder is too slow', async () => {
    const [one, other] = [await instance(), await instance()];
    // The holder answers when the test lets it: after the impatient waiter's deadline, however slow the machine.
    let letHolderAnswer!: () => void;
    const holderMayAnswer = new Promise<void>((resolve) => (letHolderAnswer = resolve));
    const slow = once(one, 'slow', async () => {
      await holderMayAnswer;
      return 'late answer';
    });
    await untilLocked(other, 'slow');
    let producedByWaiter = false;
    const impatient = once(
      other,
      'slow',
      async () => {
        producedByWaiter = true;
        return 'never';
      },
      100,
    );
    await expect(impatient).rejects.toThrow(GaveUp);
    const patient = once(other, 'slow', async () => 'never');
    letHolderAnswer();
    expect(await slow).toEqual({ value: 'late answer', producedHere: true });
    expect(await patient).toEqual({ value: 'late answer', producedHere: false });
    expect(producedByWaiter).toBe(false);
  });

  it("gives a waiter the holder's answer when the holder stores it and lets go between the waiter's look and its lock", async () => {
    const [holder, waiter] = [await instance(), await instance()];
    // The holder's lock; it finishes (stores its answer, then lets go) just after the waiter's first look.
    await holder.client.set('lock:race', 'the holder', 'PX', 5_000);
    let looks = 0;
    const look = async () => {
      looks++;
      const found = (await waiter.client.get('result:race')) ?? undefined;
      if (looks === 1) {
        await holder.client.set('result:race', 'answer of the holder', 'PX', 5_000);
        await holder.client.del('lock:race');
      }
      return found;
    };
    let producedByWaiter = false;
    const outcome = await once(
      waiter,
      'race',
      async () => {
        producedByWaiter = true;
        return 'a second answer';
      },
      5_000,
      look,
    );
    expect(outcome).toEqual({ value: 'answer of the holder', producedHere: false });
    expect(producedByWaiter).toBe(false);
    expect(await waiter.client.get('lock:race')).toBeNull();
  });
});

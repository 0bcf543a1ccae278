import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CatalogAnswer } from '../../src/catalog/answer.js';
import { createLogger } from '../../src/config/logger.js';
import { openAnswerFile } from '../../src/stores/answers/answerFile.js';
import { createRedisAnswers } from '../../src/stores/answers/redis.js';
import { redisForSuite } from '../helpers/redisSuite.js';

// The answers in Redis, against a real redis-server: a page is fetched by one instance at a time.
// An instance that died while fetching leaves its lock for a page deadline and a margin; a user's
// request gives up at its own deadline, and the crawler's waits it out and fetches here.

const { connect } = redisForSuite();
const DEADLINE_MS = 300;

class GaveUp extends Error {}

async function store() {
  const redis = await connect();
  const file = openAnswerFile({
    path: join(mkdtempSync(join(tmpdir(), 'answers-redis-')), 'answers.sqlite'),
    maxBytes: 1_000_000,
    keepUntil: () => Date.now() + 60_000,
    now: Date.now,
    logger: createLogger('silent'),
  });
  const answers = createRedisAnswers({
    redis,
    file,
    lifetimes: { staleMaxMs: 60_000, keepMs: 60_000 },
    deadlineMs: DEADLINE_MS,
    now: Date.now,
  });
  return { redis, answers };
}

const answerOf = (text: string): CatalogAnswer => ({ body: Buffer.from(text), etag: `"${text}"`, fetchedAt: Date.now(), ttlSeconds: 60 });

describe('a page whose fetching instance died, holding its lock', () => {
  it("gives up at the page deadline for a user's request, and is fetched here by the crawler once the lock has expired", async () => {
    const { redis, answers } = await store();
    // The dead instance's lock, as it took it: a page deadline and the margin.
    await redis.client.set('lock:answer:/catalog/series?slug=a', 'dead-instance', 'PX', DEADLINE_MS + 1_000);

    const user = answers.load('/catalog/series?slug=a', async () => answerOf('user'), { onGiveUp: () => new GaveUp('user gave up') });
    await expect(user).rejects.toThrow('user gave up');

    let fetchedAt = 0;
    const crawler = await answers.load(
      '/catalog/series?slug=a',
      async () => {
        fetchedAt = Date.now();
        return answerOf('crawler');
      },
      { onGiveUp: () => new GaveUp('crawler gave up'), background: true },
    );
    expect(crawler.body.toString()).toBe('crawler');
    expect(fetchedAt).toBeGreaterThan(0);
    expect(await redis.client.exists('lock:answer:/catalog/series?slug=a')).toBe(0);
  });
});

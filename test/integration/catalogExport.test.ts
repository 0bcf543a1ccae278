import { gunzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { SERIES } from '../simulator/dataset.js';
import type { PageContext } from '../simulator/pages/context.js';
import { VARIANTS } from '../simulator/variant.js';
import { expectedSeries } from '../helpers/seriesExpectations.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// The crawler and the export through the real app against the simulator: what the export holds is
// computed from the simulator's data (its series pages and list cards), never from our parsers.

const CRAWL = { CRAWL_ENABLED: 'true', CRAWL_INTERVAL_MS: '0' };

function contextOf(stack: TestStack): PageContext {
  const { origin } = stack.simulator;
  return { origin, host: new URL(origin).host, variant: VARIANTS[stack.simulator.variant] };
}

async function untilComplete(stack: TestStack, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!(stack.app.localCatalog.state().complete && stack.app.localCatalog.state().pass === null)) {
    if (Date.now() - started > timeoutMs) throw new Error(`the crawl did not complete: ${JSON.stringify(stack.app.localCatalog.state())}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const expectedEntries = (stack: TestStack) =>
  [...SERIES]
    .sort((a, b) => (a.slug < b.slug ? -1 : 1))
    .map((series) => {
      const { episodes, batches: _batches, ...detail } = expectedSeries(contextOf(stack), series);
      return { ...detail, sub: series.sub, listedEpisodes: episodes.length };
    });

let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe('GET /export/catalog.json after a full crawl', () => {
  it('holds every series of the simulated site field for field, ordered by slug, and .jsonl holds the same entries', async () => {
    stack = await startTestStack({ env: CRAWL });
    await untilComplete(stack);
    const response = await request(stack.app).get('/export/catalog.json').expect(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const document = response.body;
    expect(document.count).toBe(SERIES.length);
    expect(document.complete).toBe(true);
    expect(document.source).toBe(stack.simulator.origin);
    expect(document.$schema).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/export\/catalog\.schema\.json$/);
    expect(document.removed).toEqual([]);
    const withoutTimes = document.series.map(({ checkedAt: _checked, changedAt: _changed, ...entry }: Record<string, unknown>) => entry);
    expect(withoutTimes).toEqual(expectedEntries(stack));
    for (const entry of document.series) {
      expect(Date.parse(entry.checkedAt)).not.toBeNaN();
      expect(entry.changedAt).toBe(entry.checkedAt);
    }
    const maxTime = document.series.map((entry: { checkedAt: string }) => entry.checkedAt).sort().at(-1);
    expect(document.generatedAt).toBe(maxTime);

    const lines = await request(stack.app).get('/export/catalog.jsonl').expect(200);
    expect(lines.headers['content-type']).toBe('application/jsonl; charset=utf-8');
    const text = lines.text;
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(document.series);
  });

  it('is described by its JSON Schema (2020-12), which validates it, and refuses a broken document', async () => {
    stack = await startTestStack({ env: CRAWL });
    await untilComplete(stack);
    const schema = (await request(stack.app).get('/export/catalog.schema.json').expect(200)).body;
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const document = (await request(stack.app).get('/export/catalog.json').expect(200)).body;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    const broken = { ...document, series: [{ ...document.series[0], listedEpisodes: 'many' }] };
    expect(validate(broken)).toBe(false);
  });

  it('sends gzip built once, ETag and Last-Modified, 304 on a match (free), and counts a download once', async () => {
    stack = await startTestStack({ env: { ...CRAWL, RATE_LIMIT_MAX: '5' } });
    await untilComplete(stack);
    const plain = await request(stack.app).get('/export/catalog.json').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['x-ratelimit-remaining']).toBe('4');
    const zipped = await request(stack.app)
      .get('/export/catalog.json')
      .set('Accept-Encoding', 'gzip')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    expect(zipped.headers['last-modified']).toBe(new Date(plain.body.generatedAt).toUTCString());
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(zipped.headers['x-ratelimit-remaining']).toBe('3');
    expect(gunzipSync(zipped.body as Buffer).toString('utf8')).toBe(plain.text);
    const notModified = await request(stack.app).get('/export/catalog.json').set('If-None-Match', plain.headers.etag!).expect(304);
    expect(notModified.headers['x-ratelimit-remaining']).toBe('3');
    await request(stack.app).get('/export/catalog.json').set('If-Modified-Since', plain.headers['last-modified']!).expect(304);
    await request(stack.app).get('/export/catalog.jsonl').expect(200);
    await request(stack.app).get('/export/catalog.schema.json').expect(200);
    await request(stack.app).get('/export/catalog.json').expect(200);
    const refused = await request(stack.app).get('/export/catalog.json').expect(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
  });
});

describe('the export while the catalog is not ready', () => {
  it('answers 503 CATALOG_NOT_READY with Retry-After when the crawler is turned off', async () => {
    stack = await startTestStack();
    const response = await request(stack.app).get('/export/catalog.json').expect(503);
    expect(response.body.error.code).toBe('CATALOG_NOT_READY');
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(stack.simulator.hitCount()).toBe(0);
  });

  it('answers 404 for another file under /export', async () => {
    stack = await startTestStack();
    const response = await request(stack.app).get('/export/catalog.xml').expect(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
  });
});

import { Ajv2020 } from 'ajv/dist/2020.js';
import { load } from 'cheerio';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { crawlEnv, expectedEntries, firstPassDone, until, withoutTimes } from '../helpers/crawl.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// The crawler and the export through the real app against the simulator: what the export holds is
// computed from the simulator's data (its series pages and list cards), never from our parsers.

const CRAWL = crawlEnv();
const untilComplete = (stack: TestStack) => until(stack, firstPassDone);

let stack: TestStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

describe('GET /export/catalog.json after a full crawl', () => {
  describe('read, not changed, by both tests', () => {
    // One full crawl for both: neither test changes the site, the catalog or the quota that the other reads.
    let crawled: TestStack;
    beforeAll(async () => {
      crawled = await startTestStack({ env: CRAWL });
      await untilComplete(crawled);
    }, 60_000);
    afterAll(() => crawled.close());

    it('holds every series of the simulated site field for field, ordered by slug, and .jsonl holds the same entries', async () => {
      const response = await request(crawled.app).get('/export/catalog.json').expect(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const document = response.body;
      expect(document.count).toBe(crawled.simulator.catalog.series.length);
      expect(document.complete).toBe(true);
      expect(document.source).toBe(crawled.simulator.origin);
      expect(document.$schema).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/export\/catalog\.schema\.json$/);
      expect(document.removed).toEqual([]);
      expect(withoutTimes(document.series)).toEqual(expectedEntries(crawled.simulator));
      for (const entry of document.series) {
        expect(Date.parse(entry.checkedAt)).not.toBeNaN();
        expect(entry.changedAt).toBe(entry.checkedAt);
      }
      const maxTime = document.series
        .map((entry: { checkedAt: string }) => entry.checkedAt)
        .sort()
        .at(-1);
      expect(document.generatedAt).toBe(maxTime);

      const lines = await request(crawled.app).get('/export/catalog.jsonl').expect(200);
      expect(lines.headers['content-type']).toBe('application/jsonl; charset=utf-8');
      const text = lines.text;
      expect(text.endsWith('\n')).toBe(true);
      expect(
        text
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line)),
      ).toEqual(document.series);
    });

    it('is described by its JSON Schema (2020-12), which validates it, and refuses a broken document', async () => {
      const schema = (await request(crawled.app).get('/export/catalog.schema.json').expect(200)).body;
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      const document = (await request(crawled.app).get('/export/catalog.json').expect(200)).body;
      const validate = new Ajv2020({ strict: false }).compile(schema);
      expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
      const broken = { ...document, series: [{ ...document.series[0], listedEpisodes: 'many' }] };
      expect(validate(broken)).toBe(false);
    });
  });

  it('sends gzip built once, ETag and Last-Modified, 304 on a match (free), and counts a download once', async () => {
    // One origin for every request: the document names its schema by it. A site of 30 series: the
    // claim is about how the document is sent, whatever it holds.
    stack = await startTestStack({
      env: { ...CRAWL, RATE_LIMIT_MAX: '5', PUBLIC_URL: 'https://api.example' },
      simulator: { catalogSize: 30 },
    });
    await untilComplete(stack);
    const plain = await request(stack.app).get('/export/catalog.json').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['x-ratelimit-remaining']).toBe('4');
    expect(plain.body.$schema).toBe('https://api.example/export/catalog.schema.json');
    // supertest inflates the body: that it reads as the identity bytes shows the gzip is whole.
    const zipped = await request(stack.app).get('/export/catalog.json').set('Accept-Encoding', 'gzip').expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    expect(zipped.headers['last-modified']).toBe(new Date(plain.body.generatedAt).toUTCString());
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(zipped.headers['x-ratelimit-remaining']).toBe('3');
    expect(zipped.text).toBe(plain.text);
    expect(Number(zipped.headers['content-length'])).toBeLessThan(Buffer.byteLength(plain.text) / 3);
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

describe('the export in the reference', () => {
  it('is on /docs with a "Coba" link to each file, and in /openapi.json with its media types and CATALOG_NOT_READY', async () => {
    stack = await startTestStack();
    const $ = load((await request(stack.app).get('/docs').expect(200)).text);
    const links = $('section:has(#export-catalog) .feed-links a');
    expect(links.map((_, link) => $(link).attr('href')).get()).toEqual([
      '/export/catalog.json',
      '/export/catalog.jsonl',
      '/export/catalog.schema.json',
    ]);
    expect(links.map((_, link) => $(link).text().split(':')[0]).get()).toEqual(['Coba', 'Coba', 'Coba']);
    const document = (await request(stack.app).get('/openapi.json').expect(200)).body;
    const json = document.paths['/export/catalog.json'].get;
    expect(Object.keys(json.responses['200'].content)).toEqual(['application/json']);
    expect(json.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CatalogExport' });
    expect(json.responses['503'].description).toContain('CATALOG_NOT_READY');
    expect(Object.keys(document.paths['/export/catalog.jsonl'].get.responses['200'].content)).toEqual(['application/jsonl']);
    expect(Object.keys(document.paths['/export/catalog.schema.json'].get.responses['200'].content)).toEqual(['application/schema+json']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeData } from '../../src/contract/schemas.js';
import { readFeed } from '../helpers/feedReader.js';
import { isNotText, notTextIn, stringsIn } from '../helpers/notText.js';
import { listenOnLoopback, startTestStack, type LoopbackServer, type TestStack } from '../helpers/testApp.js';

// A site whose every text carries control characters and noncharacters, raw and as references
// (the simulator's `not-text` fault), served beside the same site without them: the API's JSON and
// all three feed formats carry none of them, the Atom and RSS feeds are well-formed XML to an
// independent parser, and every answer is the clean site's, but for the origins in its links.

interface Service {
  stack: TestStack;
  server: LoopbackServer;
}

let clean: Service;
let dirty: Service;

async function start(faulty: boolean): Promise<Service> {
  const stack = await startTestStack({ simulator: { faults: faulty ? [{ kind: 'not-text' }] : [] } });
  return { stack, server: await listenOnLoopback(stack.app) };
}

beforeAll(async () => {
  [clean, dirty] = [await start(false), await start(true)];
});
afterAll(async () => {
  for (const service of [clean, dirty]) {
    await service.server.close();
    await service.stack.close();
  }
});

/** The body with the service's and the simulator's origins and host written the same for both services. */
async function body(service: Service, path: string): Promise<string> {
  const response = await fetch(`${service.server.baseUrl}${path}`);
  expect(response.status).toBe(200);
  const text = await response.text();
  const site = new URL(service.stack.simulator.origin);
  // Photon image URLs carry the site's host without its scheme.
  return text.replaceAll(service.server.baseUrl, 'http://service').replaceAll(site.origin, 'http://site').replaceAll(site.host, 'site');
}

// What differs between two fetches of one page anyway.
function withoutFetchTimes(answer: { meta?: Record<string, unknown> }) {
  const { fetchedAt: _fetchedAt, ...meta } = answer.meta ?? {};
  return { ...answer, meta };
}

describe('a site with characters that are not text in every text', () => {
  let seriesSlug = '';

  beforeAll(async () => {
    const home = JSON.parse(await body(clean, '/catalog/home')) as { data: HomeData };
    seriesSlug = home.data.slider[0]!.slug;
  });

  it.each(['/catalog/home', '/catalog/ongoing-series?page=2', '/catalog/series/{series}', '/catalog/new-movie'])(
    '%s answers the clean site’s JSON',
    async (template) => {
      const path = template.replace('{series}', seriesSlug);
      const [fromClean, fromDirty] = [JSON.parse(await body(clean, path)), JSON.parse(await body(dirty, path))];
      expect(stringsIn(fromDirty.data).length).toBeGreaterThan(5);
      expect(notTextIn(fromDirty)).toEqual([]);
      expect(withoutFetchTimes(fromDirty)).toEqual(withoutFetchTimes(fromClean));
    },
  );

  for (const feed of ['latest', 'movies', 'series/{series}']) {
    it.each(['atom', 'rss', 'json'] as const)(`/feeds/${feed}.%s is well-formed and reads as the clean site’s`, async (format) => {
      const path = `/feeds/${feed.replace('{series}', seriesSlug)}.${format}`;
      const [fromClean, fromDirty] = [await body(clean, path), await body(dirty, path)];
      // readFeed checks the XML's well-formedness before reading it.
      const [read, readClean] = [await readFeed(fromDirty, format), await readFeed(fromClean, format)];
      expect(read.entries.length).toBeGreaterThan(0);
      expect(notTextIn(read)).toEqual([]);
      expect([...fromDirty].filter((char) => isNotText(char.codePointAt(0)!))).toEqual([]);
      const undated = (entries: typeof read.entries) => entries.map(({ date: _date, ...entry }) => entry);
      expect(undated(read.entries)).toEqual(undated(readClean.entries));
    });
  }
});

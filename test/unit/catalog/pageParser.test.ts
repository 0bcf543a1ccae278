import { availableParallelism } from 'node:os';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../../src/catalog/endpoints/index.js';
import { answerPage } from '../../../src/catalog/pageAnswer.js';
import { checkParseRoom, parsePage, warmPageParser } from '../../../src/catalog/pageParser.js';
import { decodeBody } from '../../../src/upstream/bodyDecoding.js';
import { ServiceBusyError, UpstreamUnreadablePageError } from '../../../src/upstream/errors.js';
import { pathologicalPage } from '../../simulator/pages/pathological.js';
import { resolveRoute } from '../../simulator/router.js';
import { answerRoute } from '../../simulator/site.js';
import { VARIANTS } from '../../simulator/variant.js';

// The parse queue: a page waits for a thread as long as it takes (the wait is ours, and the parse
// deadline starts when a thread starts the page), and a full queue refuses at once as busy.

const ORIGIN = 'http://127.0.0.1:4000';
const SEARCH_URL = `${ORIGIN}/?s=a`;
const search = endpoints.find((entry) => entry.path === '/catalog/search')!;
const input = { q: 'a', page: 1 };
/**
 * The deadline of the hostile pages, shorter than production's: held to it, one parse of them takes
 * far longer (a quadratic tree), and a search page far less even in a thread just started.
 */
const HELD_DEADLINE_MS = 300;

function searchHtml(): string {
  const answer = answerRoute(
    { origin: ORIGIN, host: new URL(ORIGIN).host, variant: VARIANTS.cafe },
    resolveRoute(new URL(SEARCH_URL), VARIANTS.cafe),
  );
  if (!('html' in answer)) throw new Error('the simulator rendered no search page');
  return answer.html;
}

/** A fetched search page: its UTF-8 bytes, as they arrive. */
const searchPage = (html: string) => ({
  body: Buffer.from(html),
  url: SEARCH_URL,
  servedBy: ORIGIN,
  siteOrigins: [ORIGIN],
  fetchedAt: Date.UTC(2026, 10, 29, 9, 30),
});

interface SearchAnswer {
  data: { results: Array<{ title: string }> };
}

const outcome = (parse: Promise<unknown>) =>
  parse.then(
    () => 'parsed',
    (error: unknown) =>
      error instanceof ServiceBusyError ? 'busy' : error instanceof UpstreamUnreadablePageError ? 'unparsable' : String(error),
  );

describe('a page parsed on a thread', () => {
  it('answers the bytes and ETag of the same work in the process, in memory of their own', async () => {
    await warmPageParser();
    const page = searchPage(searchHtml());
    const inProcess = answerPage({ endpointPath: search.path, page, input });
    const bytes = page.body.length;
    if (inProcess.kind !== 'parsed') throw new Error(`the search page gave ${inProcess.kind}`);
    const onThread = await parsePage(search, page, input);
    expect(onThread.body.toString()).toBe(Buffer.from(inProcess.body).toString());
    expect(JSON.parse(onThread.body.toString()).meta).toEqual({ source: SEARCH_URL, fetchedAt: '2026-11-29T09:30:00.000Z' });
    expect(onThread.etag).toBe(inProcess.etag);
    expect(onThread.missing).toEqual(inProcess.missing);
    expect(onThread.body.buffer.byteLength).toBe(onThread.body.length);
    // The page's bytes moved to the thread, not copied.
    expect(bytes).toBeGreaterThan(100_000);
    expect(page.body.length).toBe(0);
  });

  it('moves a gzipped page as decoded, whose bytes end inside the memory zlib gave them, without a copy', async () => {
    await warmPageParser();
    const html = searchHtml();
    const { body } = await decodeBody(gzipSync(html), { 'content-encoding': 'gzip' }, 4 * 1024 * 1024);
    // What the upstream client hands over for a page sent gzipped: less than zlib's output chunk.
    expect(body.byteLength).toBe(Buffer.byteLength(html));
    expect(body.buffer.byteLength).toBeGreaterThan(body.byteLength);
    const answer = await parsePage(search, { ...searchPage(''), body }, input);
    expect(answer.body.toString()).toBe((await parsePage(search, searchPage(html), input)).body.toString());
    expect(body.byteLength).toBe(0);
  });

  it("decodes the page's UTF-8 on the thread, characters beyond Latin-1 included", async () => {
    await warmPageParser();
    const html = searchHtml();
    const firstTitle = (answer: { body: Buffer }) => (JSON.parse(answer.body.toString()) as SearchAnswer).data.results[0]!.title;
    const title = firstTitle(await parsePage(search, searchPage(html), input));
    const retitled = html.replaceAll(title, '西游记 — “Séries” 🐉');
    expect(firstTitle(await parsePage(search, searchPage(retitled), input))).toBe('西游记 — “Séries” 🐉');
  });

  it("leaves a short page's memory in place: a slice of Node's shared pool is copied, not moved", async () => {
    await warmPageParser();
    const pooled = Buffer.from('<html></html>');
    const neighbour = Buffer.from('still here');
    const outcome = await parsePage(search, { ...searchPage(''), body: pooled }, input).catch((error: Error) => error.name);
    expect(outcome).toBe('LayoutChangedError');
    expect(pooled.toString()).toBe('<html></html>');
    expect(neighbour.toString()).toBe('still here');
  });
});

describe('the parse queue', () => {
  it('parses every page that waited behind pages held to their deadline', async () => {
    await warmPageParser();
    const html = searchHtml();
    const hostile = pathologicalPage(html, 'deep-nesting');
    // At least one hostile page per thread: every thread is held to its deadline while the rest wait.
    const held = Array.from({ length: availableParallelism() }, () =>
      outcome(parsePage(search, searchPage(hostile), input, HELD_DEADLINE_MS)),
    );
    const waiting = Array.from({ length: 20 }, () => outcome(parsePage(search, searchPage(html), input)));
    expect(await Promise.all(held)).toEqual(Array(availableParallelism()).fill('unparsable'));
    expect(await Promise.all(waiting)).toEqual(Array(20).fill('parsed'));
  }, 30_000);

  it('refuses as busy, at once, a page past its bound, and a miss is told before it fetches', async () => {
    await warmPageParser();
    const html = searchHtml();
    const parses = Array.from({ length: 300 }, () => outcome(parsePage(search, searchPage(html), input)));
    expect(() => checkParseRoom()).toThrow(ServiceBusyError);
    const outcomes = await Promise.all(parses);
    const busy = outcomes.filter((result) => result === 'busy').length;
    expect(busy).toBeGreaterThan(0);
    expect(outcomes.filter((result) => result === 'parsed')).toHaveLength(300 - busy);
    // Drained: room again.
    expect(() => checkParseRoom()).not.toThrow();
  }, 30_000);
});

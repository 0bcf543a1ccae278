import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'cheerio';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/server.js';
import { crawlEnv, expectedEntries, firstPassDone, listPagesRead, seriesPagesRead, until, withoutTimes } from '../helpers/crawl.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// The crawler against the simulated site, changed while it runs: what it reads, in what order and
// how often, is read from the simulator's request log. Its periods, backoffs and windows are short
// ones (the production defaults are minutes), so that each test waits a fraction of a second on them.

/** An update pass this often: a new episode is found within it. */
const UPDATE_EVERY_MS = 200;
/**
 * A site of two list pages (20 series and 10), for the tests whose claim is about a pass and not the
 * site's size: the top of a list against the rest of it, a series gone from every page.
 */
const TWO_LIST_PAGES = 30;
/** Three list pages: a restart after the first 20 series of the pass leaves 40 to read. */
const THREE_LIST_PAGES = 60;

const stacks: TestStack[] = [];
const simulators: Simulator[] = [];
afterEach(async () => {
  for (const stack of stacks.splice(0)) await stack.close();
  for (const simulator of simulators.splice(0)) await simulator.close();
});

async function stackOf(options: Parameters<typeof startTestStack>[0]): Promise<TestStack> {
  const stack = await startTestStack(options);
  stacks.push(stack);
  return stack;
}

const exportOf = async (stack: TestStack) => (await request(stack.app).get('/export/catalog.json').expect(200)).body;

describe('the crawler', () => {
  describe('after its first full pass', () => {
    // One full pass of the site's 96 series, on five list pages of 20, read by both tests: the
    // first makes one user request (a hit), which changes nothing the second reads.
    let stack: TestStack;
    beforeAll(async () => {
      stack = await startTestStack({ env: crawlEnv() });
      await until(stack, firstPassDone);
    }, 60_000);
    afterAll(() => stack.close());

    it('reads each series page once in a full pass, plus the list pages, and fills the cache: the next user gets a HIT', async () => {
      const series = stack.simulator.catalog.series;
      const read = seriesPagesRead(stack.simulator);
      expect(new Set(read).size).toBe(series.length);
      expect(read.length).toBe(series.length);
      expect(listPagesRead(stack.simulator)).toEqual([1, 2, 3, 4, 5]);
      expect(stack.app.localCatalog.state()).toMatchObject({
        complete: true,
        listed: series.length,
        read: series.length,
        held: series.length,
        removed: 0,
      });
      const hits = stack.simulator.hits.length;
      const answer = await request(stack.app).get(`/catalog/series/${series[0]!.slug}`).expect(200);
      expect(answer.headers['x-cache']).toBe('HIT');
      expect(stack.simulator.hits.length).toBe(hits);
    });

    it('shows its progress on /status (a bar of series read of series listed, the last and next pass) and in /metrics', async () => {
      const $ = load((await request(stack.app).get('/status').expect(200)).text);
      const bar = $('#katalog-bar');
      expect([bar.attr('max'), bar.attr('value')]).toEqual(['96', '96']);
      expect($('label[for="katalog-bar"]').parent().text()).toContain('96 dari 96 seri dibaca (100%)');
      const facts = Object.fromEntries(
        $('.catalog-facts div')
          .toArray()
          .map((row) => [$(row).find('dt').text(), $(row).find('dd').text()]),
      );
      expect(facts['Putaran sekarang']).toBe('tidak ada');
      expect(facts['Putaran penuh terakhir selesai']).toMatch(/WIB$/);
      expect(facts['Putaran berikutnya']).toMatch(/WIB$/);
      expect(facts['Katalog lengkap']).toBe('ya');
      const metrics = (await request(stack.app).get('/metrics').expect(200)).text;
      expect(metrics).toMatch(/^catalog_series_listed 96$/m);
      expect(metrics).toMatch(/^catalog_series_read 96$/m);
      expect(metrics).toMatch(/^catalog_complete 1$/m);
      expect(metrics).toMatch(/^catalog_crawl_steps_total\{kind="series",result="ok"\} 96$/m);
      expect(metrics).toMatch(/^catalog_crawl_steps_total\{kind="list",result="ok"\} 5$/m);
      const lastEnd = Number(/^catalog_last_full_pass_end_seconds (\S+)$/m.exec(metrics)![1]);
      const nextPass = Number(/^catalog_next_pass_seconds (\S+)$/m.exec(metrics)![1]);
      expect(nextPass).toBeGreaterThan(lastEnd);
    });
  });

  it('says on /status that it is turned off with CRAWL_ENABLED=false, and reads nothing', async () => {
    const stack = await stackOf({});
    const $ = load((await request(stack.app).get('/status').expect(200)).text);
    expect($('#katalog').parent().text()).toContain('Perayap katalog dimatikan');
    expect($('#katalog-bar').length).toBe(0);
    expect(seriesPagesRead(stack.simulator)).toEqual([]);
  });

  it('finds a new episode in the next update pass, reading only the top of the update-ordered list and the series that moved', async () => {
    const stack = await stackOf({
      env: crawlEnv(),
      crawlPasses: { updateEveryMs: UPDATE_EVERY_MS },
      simulator: { catalogSize: TWO_LIST_PAGES },
    });
    await until(stack, firstPassDone);
    const before = (await exportOf(stack)).series;
    const slugs = stack.simulator.catalog.series
      .filter((series) => series.type !== 'Movie')
      .slice(-3)
      .map((series) => series.slug);
    const from = stack.simulator.hits.length;
    for (const slug of slugs) stack.simulator.publishEpisode(slug);
    const started = Date.now();
    let document = await exportOf(stack);
    while (
      slugs.some(
        (slug) =>
          document.series.find((entry: { slug: string }) => entry.slug === slug).listedEpisodes ===
          before.find((entry: { slug: string }) => entry.slug === slug).listedEpisodes,
      )
    ) {
      if (Date.now() - started > 30_000) throw new Error('the new episodes never reached the export');
      await new Promise((resolve) => setTimeout(resolve, 100));
      document = await exportOf(stack);
    }
    expect(withoutTimes(document.series)).toEqual(expectedEntries(stack.simulator));
    // Only the three that moved to the top were read again, from page 1 of the list.
    expect(new Set(seriesPagesRead(stack.simulator, from))).toEqual(new Set(slugs));
    expect(new Set(listPagesRead(stack.simulator, from))).toEqual(new Set([1]));
    for (const slug of slugs) {
      const entry = document.series.find((item: { slug: string }) => item.slug === slug);
      expect(entry.changedAt).toBe(entry.checkedAt);
      expect(entry.changedAt > before.find((item: { slug: string }) => item.slug === slug).changedAt).toBe(true);
    }
    const untouched = document.series.find((entry: { slug: string }) => !slugs.includes(entry.slug));
    expect(untouched.changedAt).toBe(before.find((entry: { slug: string }) => entry.slug === untouched.slug).changedAt);
  });

  it('moves a series whose page is gone and that no list shows to `removed` in the next full pass', async () => {
    let offsetMs = 0;
    const now = () => Date.now() + offsetMs;
    const stack = await stackOf({
      env: crawlEnv(),
      // Idle after the first pass, it looks at the moved clock within 50 ms (a second in production).
      crawlPasses: { updateEveryMs: 3_600_000, fullPassEveryMs: 3_600_000, idleLookMs: 50 },
      now,
      simulator: { catalogSize: TWO_LIST_PAGES },
    });
    await until(stack, firstPassDone);
    const gone = stack.simulator.catalog.series[5]!;
    stack.simulator.removeSeries(gone.slug);
    offsetMs = 3_600_000;
    await until(stack, (state) => state.removed === 1 && state.pass === null);
    const document = await exportOf(stack);
    expect(document.removed).toEqual([{ slug: gone.slug, title: gone.title, removedAt: expect.any(String) }]);
    expect(document.series.some((entry: { slug: string }) => entry.slug === gone.slug)).toBe(false);
    expect(withoutTimes(document.series)).toEqual(expectedEntries(stack.simulator));
    expect(document.complete).toBe(true);
  });

  it('goes on from where it stopped after a restart mid-pass: no list page and no series page is read twice', async () => {
    const simulator = await startSimulator({ catalogSize: THREE_LIST_PAGES });
    simulators.push(simulator);
    const dataDir = mkdtempSync(join(tmpdir(), 'catalog-crawl-'));
    const env = { ...crawlEnv(0.005), DATA_DIR: dataDir };
    const first = await startTestStack({ env, sharedSimulator: simulator });
    await until(first, (state) => state.read >= 20);
    await first.close();
    const readBefore = seriesPagesRead(simulator);
    expect(readBefore.length).toBeGreaterThanOrEqual(20);
    expect(readBefore.length).toBeLessThan(THREE_LIST_PAGES);
    const second = await stackOf({ env, sharedSimulator: simulator });
    await until(second, firstPassDone);
    const all = seriesPagesRead(simulator);
    expect(all.length).toBe(THREE_LIST_PAGES);
    expect(new Set(all).size).toBe(THREE_LIST_PAGES);
    expect(listPagesRead(simulator)).toEqual([1, 2, 3]);
    expect(withoutTimes((await exportOf(second)).series)).toEqual(expectedEntries(simulator));
  });
});

describe('politeness', () => {
  it('backs off while the site is down or walled off: a handful of requests, no entry rewritten; it goes on when the site is back', async () => {
    const stack = await stackOf({
      env: crawlEnv(0),
      crawlPasses: { firstBackoffMs: 100 },
      upstreamTiming: { breakerThreshold: 3, breakerCooldownMs: 500 },
      simulator: { catalogSize: 120 },
    });
    await until(stack, (state) => state.read >= 10);
    const outage = async (mode: 'unavailable' | 'challenge') => {
      stack.simulator.setSiteDown(mode);
      const from = stack.simulator.hits.length;
      const before = stack.app.localCatalog.state();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // Crawling at full speed it would have sent a hundred or more; backing off, a few (the client's own retries included).
      expect(stack.simulator.hits.length - from).toBeLessThanOrEqual(12);
      // Nothing read meanwhile, bar the page under way when the site went down.
      expect(stack.app.localCatalog.state().held - before.held).toBeLessThanOrEqual(1);
      stack.simulator.setSiteDown(null);
    };
    await outage('unavailable');
    // The breaker's cooldown over, it reads on.
    const { read } = stack.app.localCatalog.state();
    await until(stack, (state) => state.read >= read + 10, 30_000);
    // A wall without a solver: its Retry-After (a minute) is waited out.
    await outage('challenge');
  });

  it('leaves at least CRAWL_INTERVAL_S between its requests', async () => {
    const stack = await stackOf({ env: crawlEnv(0.05), simulator: { catalogSize: 100 } });
    await until(stack, (state) => state.read >= 12);
    const times = stack.simulator.hits.map((hit) => hit.at);
    const gaps = times.slice(1).map((at, index) => at - times[index]!);
    expect(gaps.length).toBeGreaterThanOrEqual(12);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(50);
  });

  it("serves users' requests during a pass before the crawler's next request", async () => {
    const stack = await stackOf({ env: crawlEnv(0), simulator: { catalogSize: 300, latencyMs: 20 } });
    await until(stack, (state) => state.read >= 5);
    for (let round = 0; round < 5; round++) {
      const from = stack.simulator.hits.length;
      await request(stack.app)
        .get(`/catalog/az-list?page=${round + 1}`)
        .expect(200);
      const upstream = stack.simulator.hits.slice(from).map((hit) => hit.path);
      const userAt = upstream.indexOf(round === 0 ? '/az-lists/' : `/az-lists/page/${round + 1}/`);
      // At most the crawler's request already under way went before it.
      expect(userAt).toBeGreaterThanOrEqual(0);
      expect(userAt).toBeLessThanOrEqual(1);
    }
  });
});

describe('one broken series page', () => {
  it('costs users nothing: their misses all answer 200, the breaker stays closed, the pass finishes, and a new episode elsewhere reaches the export', async () => {
    const stack = await stackOf({
      env: crawlEnv(0),
      crawlPasses: { updateEveryMs: UPDATE_EVERY_MS },
      upstreamTiming: { breakerThreshold: 3, breakerCooldownMs: 2000 },
      simulator: { catalogSize: THREE_LIST_PAGES },
    });
    const series = stack.simulator.catalog.series;
    const broken = series[3]!.slug;
    const brokenPage = `/seri/${broken}/`;
    stack.simulator.setFaults([{ kind: 'status', status: 500, pathPrefix: brokenPage }]);
    const breakerState = async () => (await request(stack.app).get('/health/upstream').expect(200)).body.breaker.state;

    // Users' misses while the crawler meets the broken page again and again (series it has not read yet).
    const userSlugs = series.slice(-20).map((item) => item.slug);
    for (const slug of userSlugs) {
      const answer = await request(stack.app).get(`/catalog/series/${slug}`);
      expect(answer.status, slug).toBe(200);
      expect(await breakerState()).toBe('closed');
    }
    const passEnded = await until(stack, (state) => state.pass === null && state.lastFullPassEndedAt !== null, 20_000);
    expect(passEnded.held).toBe(series.length - 1);
    expect(stack.simulator.hitCount(brokenPage)).toBeGreaterThanOrEqual(1);
    expect(await breakerState()).toBe('closed');

    // Update passes go on, each trying the broken page once more, and find a new episode elsewhere.
    const elsewhere = series.find((item) => item.type !== 'Movie' && item.slug !== broken)!.slug;
    const before = (await exportOf(stack)).series.find((entry: { slug: string }) => entry.slug === elsewhere).listedEpisodes;
    stack.simulator.publishEpisode(elsewhere);
    const started = Date.now();
    let entry = (await exportOf(stack)).series.find((item: { slug: string }) => item.slug === elsewhere);
    while (entry.listedEpisodes === before) {
      if (Date.now() - started > 20_000) throw new Error('the new episode never reached the export');
      await new Promise((resolve) => setTimeout(resolve, 100));
      entry = (await exportOf(stack)).series.find((item: { slug: string }) => item.slug === elsewhere);
    }
    expect(entry.listedEpisodes).toBe(before + 1);
    expect(await breakerState()).toBe('closed');

    // Mended, the broken page is read on a later pass.
    stack.simulator.clearFaults();
    await until(stack, (state) => state.held === series.length, 30_000);
    expect(withoutTimes((await exportOf(stack)).series)).toEqual(expectedEntries(stack.simulator));
  }, 60_000);
});

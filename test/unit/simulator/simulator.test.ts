import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import * as cheerio from 'cheerio';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  homeTotalPages,
  latestReleases,
  movies,
  ongoing,
  popular,
  quickFilterGenres,
  search,
  sidebarGenres,
} from '../../simulator/catalog.js';
import { SERIES } from '../../simulator/dataset.js';
import { listPageHref } from '../../simulator/pages/seriesListPage.js';
import { startSimulator, type Simulator } from '../../simulator/server.js';
import { untilOnRealTimers } from '../../helpers/waiting.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** Plain node:http, so the test controls Accept-Encoding and timeouts exactly. */
function get(
  origin: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    if (options.timeoutMs !== undefined) req.setTimeout(options.timeoutMs, () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end();
  });
}

let sim: Simulator;
const fetchPage = (path: string, options?: Parameters<typeof get>[2]) => get(sim.origin, path, options);

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.clearFaults();
  sim.setSiteDown(null);
  sim.resetHits();
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * The simulator's latencies, hangs and trickles wait on the global timers: faked, the test moves
 * time by hand and sees what the simulator does at each moment, however slow the machine. Sockets
 * keep their own (real) timers.
 */
function simulatorTimeByHand(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
}

/** A request whose answer is watched as it comes: status once the headers are in, bytes as they arrive, and the end. */
function watchedGet(origin: string, path: string) {
  const progress = { status: 0, bytes: 0, ended: false, error: undefined as Error | undefined };
  const req = httpRequest(`${origin}${path}`, (res) => {
    progress.status = res.statusCode ?? 0;
    res.on('data', (chunk: Buffer) => {
      progress.bytes += chunk.length;
    });
    res.on('end', () => {
      progress.ended = true;
    });
  });
  req.on('error', (error) => {
    progress.error = error;
  });
  req.end();
  return { progress, req };
}

describe('dataset', () => {
  it('has enough series, two pages of movies, and one more quick-filter genre than the widget', () => {
    expect(SERIES.length).toBe(96);
    expect(movies(1).totalItems).toBe(28);
    expect(movies(2).items).toHaveLength(8);
    expect(quickFilterGenres()).toHaveLength(46);
    expect(sidebarGenres()).toHaveLength(45);
  });
});

describe('routing', () => {
  it('serves home page 1 with theme headers, 20 latest cards and only a Next link', async () => {
    const answer = await fetchPage('/');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(answer.headers.server).toBe('cloudflare');
    const $ = cheerio.load(answer.text);
    expect($('link[rel=canonical]').attr('href')).toBe(`${sim.origin}/`);
    expect($('.latesthome').parent().find('.listupd article.bs')).toHaveLength(20);
    expect($('.latesthome').parent().find('.listupd article.bs a.tip').first().attr('href')).toBe(
      `${sim.origin}${latestReleases(1).items[0]?.path}`,
    );
    expect($('.hothome').parent().find('article.bs')).toHaveLength(5);
    expect($('.hpage a.l')).toHaveLength(0);
    expect($('.hpage a.r').attr('href')).toBe(`${sim.origin}/page/2/`);
  });

  it('links page 2 back to / and leaves Next off the last page', async () => {
    const second = cheerio.load((await fetchPage('/page/2/')).text);
    expect(second('.hpage a.l').attr('href')).toBe(`${sim.origin}/`);
    expect(second('.hpage a.r').attr('href')).toBe(`${sim.origin}/page/3/`);
    const last = cheerio.load((await fetchPage(`/page/${homeTotalPages()}/`)).text);
    expect(last('.hpage a.r')).toHaveLength(0);
    expect(last('.hpage a.l').attr('href')).toBe(`${sim.origin}/page/${homeTotalPages() - 1}/`);
  });

  it('redirects page 1 URLs to their canonical form', async () => {
    expect((await fetchPage('/page/1/')).headers.location).toBe(`${sim.origin}/`);
    const ongoingOne = await fetchPage('/ongoing/page/1/');
    expect(ongoingOne.status).toBe(301);
    expect(ongoingOne.headers.location).toBe(`${sim.origin}/ongoing/`);
    expect((await fetchPage('/page/1/?s=soul')).headers.location).toBe(`${sim.origin}/?s=soul`);
  });

  it('answers 404 with full chrome past the last page and for unknown paths', async () => {
    for (const path of [
      `/page/${homeTotalPages() + 1}/`,
      `/ongoing/page/${ongoing(1).totalPages + 1}/`,
      '/no-such-thing/',
      `/page/${search('of', 1).totalPages + 1}/?s=of`,
    ]) {
      const answer = await fetchPage(path);
      expect(answer.status, path).toBe(404);
      expect(cheerio.load(answer.text)('#sidebar ul.genre li')).toHaveLength(45);
    }
  });

  it('paginates search like paginate_links and shows the not-found notice without pagination', async () => {
    const $ = cheerio.load((await fetchPage('/page/2/?s=of')).text);
    expect($('.postbody .listupd article.bs')).toHaveLength(search('of', 2).items.length);
    expect(
      $('.pagination > *')
        .map((_, el) => $(el).text())
        .get(),
    ).toEqual(['« Previous', '1', '2', '3', 'Next »']);
    expect($('.pagination a.prev').attr('href')).toBe(`${sim.origin}/?s=of`);
    expect($('.pagination a.next').attr('href')).toBe(`${sim.origin}/page/3/?s=of`);
    const none = cheerio.load((await fetchPage('/?s=zzzz')).text);
    expect(none('.postbody .listupd center h3').text()).toBe(
      'Sorry, but nothing matched your search terms. Please try again with some different keywords.',
    );
    expect(none('.pagination')).toHaveLength(0);
  });

  it('serves the series list under /seri, /seri/ and /anime/ with relative hpage links', async () => {
    const popularTwo = cheerio.load((await fetchPage('/seri?order=popular&page=2')).text);
    expect(
      popularTwo('.postbody .listupd article.bs a.tip')
        .map((_, el) => popularTwo(el).attr('rel'))
        .get(),
    ).toEqual(popular(2).items.map((series) => String(series.id)));
    expect(popularTwo('.hpage a.l').attr('href')).toBe('?page=1&order=popular');
    expect(popularTwo('.hpage a.r').attr('href')).toBe('?page=3&order=popular');
    const movieList = cheerio.load((await fetchPage('/anime/?status=&type=Movie&order=update')).text);
    expect(movieList('.postbody .listupd article.bs')).toHaveLength(20);
    expect(movieList('.postbody .listupd article.bs .tt h2').first().text()).toBe(movies(1).items[0]?.title);
    expect(movieList('.hpage a.r').attr('href')).toBe('?page=2&status=&type=Movie&order=update');
  });

  it('re-emits array parameters indexed, as PHP does', () => {
    expect(listPageHref(new URLSearchParams('genre[]=action&genre[]=martial arts&type=&page=4'), 5)).toBe(
      '?page=5&genre%5B0%5D=action&genre%5B1%5D=martial+arts&type=',
    );
  });

  it('answers a series-list page past the end with 200 and an empty list', async () => {
    const answer = await fetchPage('/seri/?order=popular&page=999');
    expect(answer.status).toBe(200);
    const $ = cheerio.load(answer.text);
    expect($('.postbody .listupd')).toHaveLength(1);
    expect($('.postbody .listupd article.bs')).toHaveLength(0);
    expect($('.hpage a.r')).toHaveLength(0);
  });

  it('answers HEAD without a body and other methods with 405', async () => {
    const head = await fetchPage('/ongoing/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(100_000);
    expect(head.body).toHaveLength(0);
    const post = await fetchPage('/', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('gzips when asked and only then', async () => {
    const plain = await fetchPage('/ongoing/page/2/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await fetchPage('/ongoing/page/2/', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(zipped.body).toString('utf8')).toBe(plain.text);
  });

  it('links cards to /anime/ in the classic variant, whose list is at /anime/ only', async () => {
    const classic = await startSimulator({ variant: 'classic' });
    try {
      expect((await get(classic.origin, '/seri/?order=popular')).status).toBe(404);
      const $ = cheerio.load((await get(classic.origin, '/anime/?order=popular')).text);
      expect($('.postbody .mrgn .listupd article.bs a.tip').first().attr('href')).toBe(
        `${classic.origin}/anime/${popular(1).items[0]?.slug}/`,
      );
      const home = cheerio.load((await get(classic.origin, '/')).text);
      expect(home('.releases.latesthome h2').text()).toBe('Rilisan Terbaru');
      expect(home('.listupd.popularslider article.bs')).toHaveLength(5);
    } finally {
      await classic.close();
    }
  });
});

describe('faults', () => {
  it('answers a Cloudflare challenge with its headers and markers', async () => {
    sim.setFaults([{ kind: 'challenge' }]);
    const answer = await fetchPage('/ongoing/');
    expect(answer.status).toBe(403);
    expect(answer.headers['cf-mitigated']).toBe('challenge');
    expect(answer.headers.server).toBe('cloudflare');
    expect(answer.headers['cache-control']).toBe('private, max-age=0, no-store');
    for (const marker of [
      '<title>Just a moment...</title>',
      'window._cf_chl_opt',
      '/cdn-cgi/challenge-platform/',
      'id="challenge-running"',
    ]) {
      expect(answer.text).toContain(marker);
    }
  });

  it('answers the legacy challenge as a 503 without cf-mitigated', async () => {
    sim.setFaults([{ kind: 'challenge-body-only' }]);
    const answer = await fetchPage('/');
    expect(answer.status).toBe(503);
    expect(answer.headers['cf-mitigated']).toBeUndefined();
    expect(answer.text).toContain('window._cf_chl_opt');
  });

  it('limits a fault by times and by path prefix', async () => {
    sim.setFaults([
      { kind: 'status', status: 503, times: 1 },
      { kind: 'status', status: 502, pathPrefix: '/ongoing/' },
    ]);
    expect((await fetchPage('/')).status).toBe(503);
    expect((await fetchPage('/')).status).toBe(200);
    expect((await fetchPage('/ongoing/page/2/')).status).toBe(502);
    expect((await fetchPage('/ongoing/page/2/')).status).toBe(502);
    expect(sim.hitCount()).toBe(4);
    expect(sim.hitCount('/ongoing/')).toBe(2);
    expect(sim.hits.map((hit) => hit.path)).toEqual(['/', '/', '/ongoing/page/2/', '/ongoing/page/2/']);
  });

  it('hangs until the client gives up', async () => {
    simulatorTimeByHand();
    sim.setFaults([{ kind: 'hang', pathPrefix: '/ongoing/' }]);
    const hung = watchedGet(sim.origin, '/ongoing/');
    await untilOnRealTimers(() => sim.hitCount('/ongoing/') === 1);
    // A day of the simulator's time: still no answer, not even its headers, while other paths answer.
    await vi.advanceTimersByTimeAsync(86_400_000);
    expect((await fetchPage('/')).status).toBe(200);
    expect(hung.progress).toMatchObject({ status: 0, bytes: 0, ended: false, error: undefined });
    hung.req.destroy(new Error('client gave up'));
    await untilOnRealTimers(() => hung.progress.error !== undefined);
    expect(hung.progress.error?.message).toBe('client gave up');
    expect(sim.hitCount('/ongoing/')).toBe(1);
  });

  it('delays answers by the latency fault', async () => {
    simulatorTimeByHand();
    sim.setFaults([{ kind: 'latency', ms: 250, pathPrefix: '/?s=' }]);
    const delayed = watchedGet(sim.origin, '/?s=soul');
    await untilOnRealTimers(() => sim.hitCount('/?s=') === 1);
    await vi.advanceTimersByTimeAsync(249);
    // A page without the fault, asked later, is answered first: the delayed one still waits.
    expect((await fetchPage('/')).status).toBe(200);
    expect(delayed.progress).toMatchObject({ status: 0, bytes: 0 });
    await vi.advanceTimersByTimeAsync(1);
    await untilOnRealTimers(() => delayed.progress.ended);
    expect(delayed.progress.status).toBe(200);
  });

  it('redirects every path to the new domain', async () => {
    sim.setFaults([{ kind: 'redirect', location: 'http://127.0.0.2:9/' }]);
    const answer = await fetchPage('/page/2/?s=soul');
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe('http://127.0.0.2:9/page/2/?s=soul');
  });

  it('trickles the body at the given rate', async () => {
    const whole = await fetchPage('/ongoing/');
    simulatorTimeByHand();
    sim.setFaults([{ kind: 'trickle', bytesPerSecond: 400_000 }]);
    const trickled = watchedGet(sim.origin, '/ongoing/');
    // The headers at once, then a tenth of a second's worth (40,000 bytes) every 100 ms of the simulator's time.
    await untilOnRealTimers(() => trickled.progress.status !== 0);
    expect(trickled.progress.status).toBe(200);
    expect(trickled.progress.bytes).toBe(0);
    const slices = Math.ceil(whole.body.length / 40_000);
    expect(slices).toBeGreaterThan(1);
    for (let slice = 1; slice < slices; slice++) {
      await vi.advanceTimersByTimeAsync(100);
      await untilOnRealTimers(() => trickled.progress.bytes >= slice * 40_000);
      expect(trickled.progress.bytes).toBe(slice * 40_000);
      expect(trickled.progress.ended).toBe(false);
    }
    await vi.advanceTimersByTimeAsync(100);
    await untilOnRealTimers(() => trickled.progress.ended);
    expect(trickled.progress.bytes).toBe(whole.body.length);
  });

  it('redesigns pages on layout-change but keeps a full 200 page', async () => {
    sim.setFaults([{ kind: 'layout-change' }]);
    const answer = await fetchPage('/');
    expect(answer.status).toBe(200);
    const $ = cheerio.load(answer.text);
    expect($('title').text()).toBe('Anichin - Nonton Donghua Subtitle Indonesia');
    for (const selector of [
      'article.bs',
      '.bsx',
      '.listupd',
      '.hpage',
      'ul.genre',
      '.quickfilter',
      '#sidebar',
      '.serieslist',
      'input[name="genre[]"]',
      'a[href*="/genres/"]',
    ]) {
      expect($(selector), selector).toHaveLength(0);
    }
    expect($('.card-grid .card').length).toBeGreaterThan(20);
  });

  it('closes even with a hung keep-alive connection open', async () => {
    const own = await startSimulator({ faults: [{ kind: 'hang' }] });
    const pending = get(own.origin, '/').catch((error: unknown) => error);
    await untilOnRealTimers(() => own.hitCount() === 1);
    // Closing ends the hung connection rather than waiting for it: the request fails, and close resolves
    // (a close that waited would wait for ever; the deadline only stops the test from hanging).
    const closed = Promise.all([own.close(), pending]).then(() => 'closed');
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000, 'still open'))])).toBe('closed');
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('whole site down', () => {
  // A path of every kind the catalog reads: home, search, a list, a series, an episode, a term, the wall's own path.
  const everyKind = [
    '/',
    '/?s=soul',
    '/ongoing/',
    `/seri/${SERIES[0]!.slug}/`,
    '/genres/action/',
    '/az-lists/?show=A',
    '/cdn-cgi/challenge-platform/h/g/flow',
  ];

  it('answers 503 to every path, over a fault that would have let it through, and comes back when switched off', async () => {
    sim.setFaults([{ kind: 'status', status: 502, pathPrefix: '/ongoing/' }]);
    sim.setSiteDown('unavailable');
    for (const path of everyKind) expect((await fetchPage(path)).status, path).toBe(503);
    sim.setSiteDown(null);
    expect((await fetchPage('/')).status).toBe(200);
    expect((await fetchPage('/ongoing/')).status).toBe(502);
  });

  it('puts the challenge in front of everyone, even a client the wall has cleared', async () => {
    sim.setWall({ difficulty: 1, minSolveMs: 0 });
    const userAgent = 'Mozilla/5.0 test';
    const cookie = `cf_clearance=${sim.mintClearance('127.0.0.1', userAgent)}`;
    expect((await fetchPage('/', { headers: { cookie, 'user-agent': userAgent } })).status).toBe(200);
    sim.setSiteDown('challenge');
    for (const path of everyKind) {
      const answer = await fetchPage(path, { headers: { cookie, 'user-agent': userAgent } });
      expect(answer.status, path).toBe(403);
      expect(answer.headers['cf-mitigated'], path).toBe('challenge');
    }
    sim.setSiteDown(null);
    expect((await fetchPage('/', { headers: { cookie, 'user-agent': userAgent } })).status).toBe(200);
    sim.setWall(null);
  });

  it('answers no path at all while timing out', async () => {
    sim.setSiteDown('timeout');
    const results = await Promise.all(
      everyKind.map((path) =>
        fetchPage(path, { timeoutMs: 300 }).then(
          () => 'answered',
          (error: Error) => error.message,
        ),
      ),
    );
    expect(results).toEqual(everyKind.map(() => 'client timeout'));
    sim.setSiteDown(null);
    expect((await fetchPage('/')).status).toBe(200);
  });

  it('serves every page in a layout no theme selector matches, 404s staying 404s', async () => {
    sim.setSiteDown('layout-change');
    for (const path of everyKind.slice(0, 6)) {
      const answer = await fetchPage(path);
      expect(answer.status, path).toBe(200);
      expect(cheerio.load(answer.text)('.bsx, .listupd, .infox, article.bs'), path).toHaveLength(0);
    }
    expect((await fetchPage('/seri/no-such-series/')).status).toBe(404);
    sim.setSiteDown(null);
    expect(cheerio.load((await fetchPage('/')).text)('.listupd').length).toBeGreaterThan(0);
  });
});

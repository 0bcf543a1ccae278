import type { Server } from 'node:http';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorEnvelope, type EpisodeCard, type SeriesCard, type LatestMovie } from '../../src/contract/schemas.js';
import type { SeriesDetail } from '../../src/contract/series.js';
import { readFeed, type ReadEntry } from '../helpers/feedReader.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

const FORMATS = ['atom', 'rss', 'json'] as const;
const MEDIA_TYPES = {
  atom: 'application/atom+xml; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
};
// The simulator's series with 600 episodes: a realistic page for "the newest 50".
const LONG_SERIES = 'heaven-devouring-sovereign';

let stack: TestStack | undefined;
let server: Server | undefined;

afterEach(async () => {
  server?.close();
  server = undefined;
  await stack?.close();
  stack = undefined;
});

/** One listening server, so that every request of a test comes from one client and the feeds name one base URL. */
async function start(options: Parameters<typeof startTestStack>[0] = {}) {
  stack = await startTestStack(options);
  server = stack.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  const { port } = server.address() as { port: number };
  return { api: request(server), base: `http://127.0.0.1:${port}`, stack };
}

const midnightJakarta = (isoDay: string) => new Date(`${isoDay}T00:00:00+07:00`).toISOString();

describe('GET /feeds/latest.{atom,rss,json}', () => {
  it('lists the home page’s latest releases in all three formats, with the same ids, titles, links, images, order and dates', async () => {
    const { api, base, stack } = await start();
    const before = Date.now();
    const read = [];
    for (const format of FORMATS) {
      const response = await api.get(`/feeds/latest.${format}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe(MEDIA_TYPES[format]);
      read.push(await readFeed(response.text, format));
    }
    const home = (await api.get('/catalog/home')).body as { data: { latestRelease: EpisodeCard[] }; meta: { source: string } };
    const cards = home.data.latestRelease;
    expect(cards.length).toBe(20);
    const [atom, rss, json] = read;
    for (const [feed, format] of [
      [atom!, 'atom'],
      [rss!, 'rss'],
      [json!, 'json'],
    ] as const) {
      expect(feed.selfLink).toBe(`${base}/feeds/latest.${format}`);
      expect(feed.siteLink).toBe(home.meta.source);
      expect(feed.title).toBe('Episode terbaru · Donghua Catalog');
      expect(feed.entries.map(({ date: _date, ...entry }) => entry)).toEqual(
        cards.map((card) => ({
          id: card.url,
          title: card.episodeTitle,
          link: card.url,
          apiLink: `${base}/catalog/episode/${card.slug}`,
          image: card.poster,
          summary: [card.seriesTitle, card.episode === null ? null : `Episode ${card.episode}`, card.sub, card.type]
            .filter(Boolean)
            .join(' · '),
        })),
      );
    }
    // First seen together: one second apart in the page's order, whole seconds, now.
    const dates = atom!.entries.map((entry) => Date.parse(entry.date));
    expect(dates[0]).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(dates[0]).toBeLessThanOrEqual(Date.now());
    expect(dates).toEqual(dates.map((_, index) => dates[0]! - index * 1000));
    expect(rss!.entries.map((entry) => entry.date)).toEqual(atom!.entries.map((entry) => entry.date));
    expect(json!.entries.map((entry) => entry.date)).toEqual(atom!.entries.map((entry) => entry.date));
    expect([atom!.updated, rss!.updated, json!.updated]).toEqual(Array(3).fill(atom!.entries[0]!.date));
    // Three formats and the catalog answer: one upstream fetch of the home page.
    expect(stack.simulator.hitCount('/')).toBe(1);
  });

  it('is built from the catalog’s cached answer: no second fetch after /catalog/home', async () => {
    const { api, stack } = await start();
    expect((await api.get('/catalog/home')).status).toBe(200);
    const response = await api.get('/feeds/latest.rss');
    expect(response.status).toBe(200);
    expect(response.headers['x-cache']).toBe('HIT');
    expect(stack.simulator.hitCount()).toBe(1);
  });

  it('answers the same bytes and validators from the cache (in front of Express) as on the first request', async () => {
    const { api } = await start({ env: { RATE_LIMIT_MAX: '10' } });
    const first = await api.get('/feeds/latest.json?utm=reader');
    const second = await api.get('/feeds/latest.json');
    expect(first.headers['x-cache']).toBe('MISS');
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.text).toBe(first.text);
    for (const header of ['etag', 'last-modified', 'content-type', 'access-control-allow-origin', 'x-ratelimit-limit'])
      expect([header, second.headers[header]]).toEqual([header, first.headers[header]]);
    expect([first.headers['x-ratelimit-remaining'], second.headers['x-ratelimit-remaining']]).toEqual(['9', '8']);
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers HEAD with the headers and no body', async () => {
    const { api } = await start();
    const response = await api.head('/feeds/latest.atom');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(MEDIA_TYPES.atom);
    expect(Number(response.headers['content-length'])).toBeGreaterThan(1000);
    expect(response.text).toBeUndefined();
  });
});

describe('GET /feeds/series/{slug}.{atom,rss,json}', () => {
  it('carries the newest 50 episodes of the series page, dated midnight in Jakarta of their release date', async () => {
    const { api, base } = await start();
    const series = ((await api.get(`/catalog/series/${LONG_SERIES}`)).body as { data: SeriesDetail }).data;
    expect(series.episodes.length).toBe(600);
    const expected: ReadEntry[] = series.episodes.slice(0, 50).map((episode) => ({
      id: episode.url,
      title: episode.title,
      link: episode.url,
      apiLink: `${base}/catalog/episode/${episode.slug}`,
      date: midnightJakarta(episode.releaseDate!),
      image: series.poster,
      summary: `HEAVEN DEVOURING SOVEREIGN · Episode ${episode.episode} · Sub · Donghua`,
    }));
    for (const format of FORMATS) {
      const response = await api.get(`/feeds/series/${LONG_SERIES}.${format}`);
      expect(response.status).toBe(200);
      const feed = await readFeed(response.text, format);
      expect(feed.entries).toEqual(expected);
      expect(feed.siteLink).toBe(series.url);
      expect(feed.updated).toBe(expected[0]!.date);
      expect(response.headers['last-modified']).toBe(new Date(expected[0]!.date).toUTCString());
    }
  });

  it('keeps titles with &, ’ and non-Latin text well formed and unchanged', async () => {
    const { api } = await start();
    for (const slug of ['swords-sorcery-academy', 'heavens-blade-jade-sword']) {
      const series = ((await api.get(`/catalog/series/${slug}`)).body as { data: SeriesDetail }).data;
      expect(series.title).toMatch(/&/);
      for (const format of FORMATS) {
        const feed = await readFeed((await api.get(`/feeds/series/${slug}.${format}`)).text, format);
        expect(feed.title).toBe(`${series.title} · Donghua Catalog`);
        expect(feed.entries.map((entry) => entry.title)).toEqual(series.episodes.slice(0, 50).map((episode) => episode.title));
      }
    }
  });

  it('puts a new episode on top with a later date and leaves every other entry as it was', async () => {
    let clock = Date.now();
    const { api, stack } = await start({
      now: () => clock,
      env: { CACHE_TTL_OVERRIDES: '/catalog/series/{slug}=60', STALE_WHILE_REVALIDATE_S: '0' },
    });
    const path = '/feeds/series/swords-sorcery-academy.atom';
    const before = await readFeed((await api.get(path)).text, 'atom');
    expect(before.entries.map((entry) => entry.title)).toEqual([
      'Swords & Sorcery Academy Episode 03 Subtitle Indonesia',
      'Swords & Sorcery Academy Episode 02 Subtitle Indonesia',
      'Swords & Sorcery Academy Episode 01 Subtitle Indonesia',
    ]);
    stack.simulator.publishEpisode('swords-sorcery-academy');
    clock += 61_000;
    const after = await readFeed((await api.get(path)).text, 'atom');
    expect(after.entries.length).toBe(4);
    expect(after.entries[0]!.title).toBe('Swords & Sorcery Academy Episode 04 Subtitle Indonesia');
    expect(Date.parse(after.entries[0]!.date) - Date.parse(before.entries[0]!.date)).toBe(7 * 86_400_000);
    expect(after.entries.slice(1)).toEqual(before.entries);
    expect(after.updated).toBe(after.entries[0]!.date);
  });
});

describe('GET /feeds/movies.{atom,rss,json}', () => {
  it('lists the movie list, dated by the NEW MOVIE widget where it names the movie', async () => {
    const { api, base } = await start();
    const answer = (await api.get('/catalog/new-movie')).body as { data: { movies: SeriesCard[]; latest: LatestMovie[] } };
    const { movies, latest } = answer.data;
    const dated = movies.filter((movie) => latest.some((entry) => entry.slug === movie.slug && entry.releaseDate !== null));
    expect(dated.length).toBeGreaterThan(0);
    expect(dated.length).toBeLessThan(movies.length);
    for (const format of FORMATS) {
      const feed = await readFeed((await api.get(`/feeds/movies.${format}`)).text, format);
      expect(feed.entries.map(({ id, title, link, apiLink, image }) => ({ id, title, link, apiLink, image }))).toEqual(
        movies.map((movie) => ({
          id: movie.url,
          title: movie.title,
          link: movie.url,
          apiLink: `${base}/catalog/series/${movie.slug}`,
          image: movie.poster,
        })),
      );
      for (const movie of dated) {
        const releaseDate = latest.find((entry) => entry.slug === movie.slug)!.releaseDate!;
        expect(feed.entries.find((entry) => entry.id === movie.url)!.date).toBe(midnightJakarta(releaseDate));
      }
    }
  });
});

describe('conditional requests and the quota', () => {
  it('answers 304 to If-None-Match and to If-Modified-Since, without counting them', async () => {
    const { api } = await start({ env: { RATE_LIMIT_MAX: '5' } });
    const first = await api.get('/feeds/latest.rss');
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('4');
    expect(first.headers['cache-control']).toMatch(/^public, max-age=(300|299)$/);
    expect(first.text).toContain('<ttl>5</ttl>');
    const etag = first.headers.etag!;
    const lastModified = first.headers['last-modified']!;
    for (const conditional of [{ 'If-None-Match': etag }, { 'If-Modified-Since': lastModified }]) {
      const response = await api.get('/feeds/latest.rss').set(conditional);
      expect(response.status).toBe(304);
      expect(response.text).toBe('');
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['last-modified']).toBe(lastModified);
      expect(response.headers['x-ratelimit-remaining']).toBe('4');
    }
    // A validator that does not match is answered in full, and counted.
    const changed = await api.get('/feeds/latest.rss').set('If-None-Match', '"other"');
    expect(changed.status).toBe(200);
    expect(changed.headers['x-ratelimit-remaining']).toBe('3');
    const next = await api.get('/feeds/latest.atom');
    expect(next.headers['x-ratelimit-remaining']).toBe('2');
    // The formats differ in bytes, so in validators.
    expect(next.headers.etag).not.toBe(etag);
  });

  it('counts feeds into the /catalog quota and answers 429 past it; a 304 still costs nothing', async () => {
    const { api } = await start({ env: { RATE_LIMIT_MAX: '2' } });
    const feed = await api.get('/feeds/latest.json');
    expect((await api.get('/catalog/home')).headers['x-ratelimit-remaining']).toBe('0');
    const refused = await api.get('/feeds/latest.json');
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3590);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(ErrorEnvelope.parse(refused.body).error.code).toBe('RATE_LIMITED');
    const polite = await api.get('/feeds/latest.json').set('If-None-Match', feed.headers.etag!);
    expect(polite.status).toBe(304);
    const stale = await api.get('/feeds/latest.json').set('If-None-Match', '"old"');
    expect(stale.status).toBe(429);
  });
});

describe('feed errors', () => {
  async function expectError(api: request.Agent | ReturnType<typeof request>, path: string, status: number, code: string) {
    const response = await api.get(path).set('Accept', 'text/html,application/xhtml+xml,application/atom+xml');
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(ErrorEnvelope.parse(response.body).error.code).toBe(code);
    return response;
  }

  it('answers a bad slug 400, an unknown series 404 and an unknown extension 404, as JSON', async () => {
    const { api, stack } = await start();
    const bad = await expectError(api, '/feeds/series/Not_A_Slug.atom', 400, 'INVALID_PARAMETER');
    expect(ErrorEnvelope.parse(bad.body).error.details[0]!.field).toBe('slug');
    await expectError(api, '/feeds/series/l%E0%A4.rss', 400, 'INVALID_PARAMETER');
    await expectError(api, '/feeds/series/.rss', 404, 'NOT_FOUND');
    await expectError(api, '/feeds/series/no-such-series.json', 404, 'NOT_FOUND');
    await expectError(api, '/feeds/latest.xml', 404, 'NOT_FOUND');
    await expectError(api, '/feeds/series/swords-sorcery-academy.html', 404, 'NOT_FOUND');
    await expectError(api, '/feeds/latest', 404, 'NOT_FOUND');
    const post = await api.post('/feeds/latest.atom');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    // Only the unknown series reached the upstream: looked up where installs of the theme put series,
    // since nothing has taught the series path yet.
    expect(stack.simulator.hits.map((hit) => hit.path)).toEqual(['/seri/no-such-series/', '/anime/no-such-series/', '/no-such-series/']);
  });

  it('answers upstream faults as /catalog does, and never keeps them: the next request gets the feed', async () => {
    const { api, stack } = await start();
    stack.simulator.setFaults([{ kind: 'status', status: 500 }]);
    await expectError(api, '/feeds/latest.atom', 502, 'UPSTREAM_ERROR');
    stack.simulator.setFaults([{ kind: 'layout-change' }]);
    await expectError(api, '/feeds/movies.rss', 502, 'UPSTREAM_LAYOUT_CHANGED');
    stack.simulator.clearFaults();
    const recovered = await api.get('/feeds/latest.atom');
    expect(recovered.status).toBe(200);
    expect((await readFeed(recovered.text, 'atom')).entries.length).toBe(20);
  });
});

describe('feed discovery', () => {
  it('describes every feed in /openapi.json with its three media types and a 304 that costs nothing', async () => {
    const { api } = await start();
    const document = (await api.get('/openapi.json')).body as {
      paths: Record<
        string,
        {
          get: {
            operationId: string;
            parameters: { name: string; in: string; schema: { enum?: string[] } }[];
            responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
          };
        }
      >;
    };
    for (const [path, operationId, parameters] of [
      ['/feeds/latest.{format}', 'getFeedLatest', ['format']],
      ['/feeds/series/{slug}.{format}', 'getFeedSeriesBySlug', ['slug', 'format']],
      ['/feeds/movies.{format}', 'getFeedMovies', ['format']],
    ] as const) {
      const operation = document.paths[path]!.get;
      expect(operation.operationId).toBe(operationId);
      expect(operation.parameters.map((parameter) => parameter.name)).toEqual(parameters);
      expect(operation.parameters.find((parameter) => parameter.name === 'format')!.schema.enum).toEqual(['atom', 'rss', 'json']);
      expect(Object.keys(operation.responses['200']!.content!)).toEqual([
        'application/atom+xml',
        'application/rss+xml',
        'application/feed+json',
      ]);
      expect(operation.responses['200']!.content!['application/feed+json']!.schema).toEqual({ $ref: '#/components/schemas/JsonFeed' });
      expect(operation.responses['304']).toBeDefined();
    }
  });

  it('links the latest feed from the landing page and lists every feed with "Coba" links on /docs that answer', async () => {
    const { api } = await start();
    const landing = (await api.get('/')).text;
    expect(landing).toContain(
      '<link rel="alternate" type="application/atom+xml" title="Episode terbaru (Atom 1.0)" href="/feeds/latest.atom">',
    );
    expect(landing).toContain(
      '<link rel="alternate" type="application/rss+xml" title="Episode terbaru (RSS 2.0)" href="/feeds/latest.rss">',
    );
    const docs = (await api.get('/docs')).text;
    const tries = [...docs.matchAll(/<a href="([^"]+)" type="([^"]+)">Coba /g)].map((match) => [match[1], match[2]]);
    expect(tries).toEqual([
      ['/feeds/latest.atom', 'application/atom+xml'],
      ['/feeds/latest.rss', 'application/rss+xml'],
      ['/feeds/latest.json', 'application/feed+json'],
      ['/feeds/series/renegade-immortal.atom', 'application/atom+xml'],
      ['/feeds/series/renegade-immortal.rss', 'application/rss+xml'],
      ['/feeds/series/renegade-immortal.json', 'application/feed+json'],
      ['/feeds/movies.atom', 'application/atom+xml'],
      ['/feeds/movies.rss', 'application/rss+xml'],
      ['/feeds/movies.json', 'application/feed+json'],
    ]);
    for (const [url, type] of tries) {
      const response = await api.get(url!);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe(`${type}; charset=utf-8`);
    }
  });
});

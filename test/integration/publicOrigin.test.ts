import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderView } from '../../src/http/builtPages.js';
import { docsView } from '../../src/pages/docsView.js';
import { errorPageView } from '../../src/pages/errorPageView.js';
import { feedDiscoveryLinks, feedViews } from '../../src/pages/feedsView.js';
import { serviceFacts } from '../../src/pages/serviceFacts.js';
import { readFeed } from '../helpers/feedReader.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// Links in pages, feeds and /openapi.json are on the service's public origin: PUBLIC_URL when it
// is set, whatever Host a request forges; otherwise the request's Host, and then every such answer
// says `Vary: Host`, so that a shared cache never hands a copy built for a forged Host to others.
// Each page is built once per change, not per request, and is the page a render for that origin gives.

const FORGED = 'forged.example';
const ORIGIN_PAGES = ['/', '/docs', '/openapi.json'];
const FEEDS = ['/feeds/latest.atom', '/feeds/latest.rss', '/feeds/latest.json'];
const formatOf = (path: string) => path.split('.').at(-1) as 'atom' | 'rss' | 'json';

/** Counts the app's template renders by view name. */
function countRenders(stack: TestStack): Map<string, number> {
  const counts = new Map<string, number>();
  const app = stack.app.express;
  const render = app.render.bind(app);
  app.render = ((view: string, options: object, callback: (error: Error, html: string) => void) => {
    counts.set(view, (counts.get(view) ?? 0) + 1);
    render(view, options, callback);
  }) as typeof app.render;
  return counts;
}

describe('without PUBLIC_URL', () => {
  let stack: TestStack;
  let renders: Map<string, number>;
  const clock = { now: Date.parse('2026-11-27T06:00:00Z') };

  beforeAll(async () => {
    stack = await startTestStack({ now: () => clock.now });
    renders = countRenders(stack);
  });
  afterAll(() => stack.close());

  it('builds pages, /openapi.json and feeds (Express path and cached-hit path) on the Host, and says Vary: Host', async () => {
    for (const path of [...ORIGIN_PAGES, ...FEEDS, ...FEEDS]) {
      const response = await request(stack.app).get(path).set('Host', FORGED);
      expect(response.status).toBe(200);
      expect(response.headers['vary']).toMatch(/\bHost\b/);
      expect(response.text).toContain(`http://${FORGED}`);
    }
    for (const path of FEEDS) {
      const response = await request(stack.app).get(path).set('Host', 'api.test:8080');
      expect(response.headers['vary']).toMatch(/\bHost\b/);
      expect((await readFeed(response.text, formatOf(path))).selfLink).toBe(`http://api.test:8080${path}`);
      expect(response.text).not.toContain(FORGED);
    }
  });

  it('gives each origin its own copy of a page built once, equal to that page rendered for it', async () => {
    const app = stack.app.express;
    const config = stack.config;
    // The landing page shows the upstream's live status as of its build: built afresh for the comparison.
    clock.now += 5_000;
    for (const host of ['one.test', 'two.test:8080', '[::1]:3000']) {
      const [docs, landing] = await Promise.all(['/docs', '/'].map((path) => request(stack.app).get(path).set('Host', host)));
      expect(docs!.text).toBe(await renderView(app, 'docs', docsView(config, `http://${host}`)));
      expect(landing!.text).toBe(
        await renderView(app, 'landing', {
          baseUrl: `http://${host}`,
          ...serviceFacts(config),
          feeds: feedViews(config),
          alternates: feedDiscoveryLinks(config),
        }),
      );
    }
    const missing = await request(stack.app).get('/no-such-page').set('Accept', 'text/html').set('X-Request-Id', 'trace-page-0001');
    expect(missing.status).toBe(404);
    expect(missing.text).toBe(
      await renderView(app, 'error', errorPageView(404, 'NOT_FOUND', 'trace-page-0001', '/report?endpoint=other&category=bug')),
    );
  });

  it('renders each page once per change, whatever the number of requests and origins', async () => {
    const pages = ['/', '/docs', '/report', '/report?endpoint=%2Fcatalog%2Fhome&category=bug', '/openapi.json'];
    const round = async (host: string, id: number) => {
      for (const path of pages) expect((await request(stack.app).get(path).set('Host', host)).status).toBe(200);
      expect((await request(stack.app).get(`/nothing-${id}`).set('Accept', 'text/html')).status).toBe(404);
    };
    await round('first.test', 0);
    const before = new Map(renders);
    const rendered = (view: string) => (renders.get(view) ?? 0) - (before.get(view) ?? 0);
    for (let i = 1; i <= 5; i++) await round(`host-${i}.test`, i);
    expect(['landing', 'docs', 'report', 'error'].map(rendered)).toEqual([0, 0, 0, 0]);
    // The landing page shows the upstream's live status: built again once its period is over.
    clock.now += 5_000;
    for (let i = 1; i <= 3; i++) await request(stack.app).get('/').set('Host', `host-${i}.test`);
    expect(rendered('landing')).toBe(1);
  });
});

describe('with PUBLIC_URL', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ env: { PUBLIC_URL: 'https://api.example' } });
  });
  afterAll(() => stack.close());

  it('builds pages, /openapi.json and feeds on it whatever the Host, and does not vary by Host', async () => {
    for (const path of [...ORIGIN_PAGES, ...FEEDS, ...FEEDS]) {
      const response = await request(stack.app).get(path).set('Host', FORGED).set('X-Forwarded-Proto', 'http');
      expect(response.status).toBe(200);
      expect(response.headers['vary'] ?? '').not.toMatch(/\bHost\b/);
      expect(response.text).toContain('https://api.example');
      expect(response.text).not.toContain(FORGED);
    }
    for (const path of FEEDS) {
      const response = await request(stack.app).get(path).set('Host', FORGED);
      expect((await readFeed(response.text, formatOf(path))).selfLink).toBe(`https://api.example${path}`);
    }
    const document = await request(stack.app).get('/openapi.json').set('Host', FORGED);
    expect(JSON.parse(document.text).servers).toEqual([{ url: 'https://api.example' }]);
  });
});

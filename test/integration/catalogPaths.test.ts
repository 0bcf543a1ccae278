import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownedSegmentOf } from '../../src/http/door.js';
import { rawRequest } from '../helpers/rawHttp.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

// Everything under /catalog answers the JSON API, whatever the path's dots,
// slashes or Accept, and nothing under /catalog serves a static file or a page.

let stack: TestStack;
let server: Server;
let port: number;

beforeAll(async () => {
  stack = await startTestStack({ env: { RATE_LIMIT_MAX: '1000' } });
  server = stack.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await stack.close();
});

const get = (path: string, accept: string) =>
  rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`);

describe('paths under /catalog', () => {
  const paths = [
    '/catalog/%2e%2e',
    '/catalog/..',
    '/catalog/%2e%2e/css/site.css',
    '/catalog/../css/site.css',
    '/catalog/%2E%2E/%2E%2E/css/site.css',
    '/CATALOG/%2e%2e/css/site.css',
    '/catalog%2F..%2Fcss%2Fsite.css',
    '/%63atalog/..%2fcss/site.css',
    '/x/../catalog/../css/site.css',
    '//catalog/series/x',
    '///catalog/home',
    '/./catalog/home',
    '/catalog/nope',
    '/catalog',
  ];

  it.each(paths)('%s answers the JSON 404 envelope, counted against the quota, for any Accept', async (path) => {
    const remaining: number[] = [];
    for (const accept of ['application/json', 'text/html', 'text/css', '*/*']) {
      const response = await get(path, accept);
      expect([response.status, response.headers['content-type']]).toEqual([404, 'application/json; charset=utf-8']);
      expect(JSON.parse(response.body)).toMatchObject({ status: 'error', error: { code: 'NOT_FOUND' } });
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['location']).toBeUndefined();
      remaining.push(Number(response.headers['x-ratelimit-remaining']));
    }
    expect(remaining.slice(1).map((left, i) => remaining[i]! - left)).toEqual([1, 1, 1]);
  });

  it('answers a CORS preflight of any such path with 204, without counting it', async () => {
    const before = Number((await get('/catalog/nope', 'application/json')).headers['x-ratelimit-remaining']);
    for (const path of ['//catalog/home', '/CATALOG/home', '/catalog/%2e%2e']) {
      const response = await rawRequest(
        port,
        `OPTIONS ${path} HTTP/1.1\r\nHost: x\r\nOrigin: https://example.test\r\nAccess-Control-Request-Method: GET\r\nConnection: close\r\n\r\n`,
      );
      expect([path, response.status, response.headers['access-control-allow-origin']]).toEqual([path, 204, '*']);
    }
    const after = Number((await get('/catalog/nope', 'application/json')).headers['x-ratelimit-remaining']);
    expect(before - after).toBe(1);
  });

  it('still serves the stylesheet at its own path, outside the quota', async () => {
    const response = await get('/css/site.css', 'text/css');
    expect([response.status, response.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
    expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('keeps what the endpoint paths meant: any case, one trailing slash', async () => {
    for (const path of ['/catalog/genres', '/CATALOG/Genres', '/catalog/genres/']) {
      const response = await request(stack.app).get(path).set('Accept', 'text/html');
      expect([response.status, response.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
      expect(response.body.data.genres.length).toBeGreaterThan(0);
    }
  });

  it('leaves the pages, the docs and their try-it links alone', () => {
    const isCatalogPath = (path: string) => ownedSegmentOf(path, new Set(['catalog', 'feeds'])) === 'catalog';
    for (const path of ['/', '/docs', '/docs/try/catalog/home', '/report', '/status', '/css/site.css', '/catalogue', '/catalog.json'])
      expect([path, isCatalogPath(path)]).toEqual([path, false]);
    for (const path of ['/catalog', '/catalog/', '/Catalog/home', '//catalog', '/a/../catalog/x', '/catalog%2fhome', '/%63atalog'])
      expect([path, isCatalogPath(path)]).toEqual([path, true]);
  });
});

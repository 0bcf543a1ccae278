import { describe, expect, it } from 'vitest';
import { endpoints } from '../../../src/catalog/endpoints/index.js';
import { cacheKey, ownBuffer } from '../../../src/catalog/service.js';
import { PARSER_VERSION } from '../../../src/parsers/version.js';
import { SearchQuery } from '../../../src/contract/params.js';

const search = endpoints.find((endpoint) => endpoint.path === '/catalog/search')!;
const home = endpoints.find((endpoint) => endpoint.path === '/catalog/home')!;

describe('cacheKey', () => {
  it('is endpoint + validated query in a fixed order + parser version', () => {
    expect(cacheKey(search, { q: 'soul land', page: 2 })).toBe(`/catalog/search?page=2&q=soul%20land#parser-v${PARSER_VERSION}`);
    expect(cacheKey(search, { page: 2, q: 'soul land' })).toBe(cacheKey(search, { q: 'soul land', page: 2 }));
  });

  it('gives one key to searches that differ only in case, spacing or a default page', () => {
    const key = (raw: Record<string, string>) => cacheKey(search, SearchQuery.parse(raw));
    expect(key({ q: '  Soul   LAND ' })).toBe(key({ q: 'soul land', page: '1' }));
    expect(key({ q: 'soul land', page: '2' })).not.toBe(key({ q: 'soul land' }));
  });

  it('keeps endpoints apart', () => {
    expect(cacheKey(home, { page: 1 })).not.toBe(cacheKey(endpoints[3], { page: 1 }));
  });
});

describe('ownBuffer', () => {
  it('holds a short answer in memory of its own size, not in a slice of a shared slab', () => {
    const text = '{"status":"success","data":{"query":"série","results":[]}}';
    const body = ownBuffer(text);
    expect(body.toString()).toBe(text);
    expect(body.buffer.byteLength).toBe(Buffer.byteLength(text));
    // What it replaces: a slice that keeps the pool's whole slab alive.
    expect(Buffer.from(text).buffer.byteLength).toBeGreaterThan(Buffer.byteLength(text));
  });
});

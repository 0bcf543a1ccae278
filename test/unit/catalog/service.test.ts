import { describe, expect, it } from 'vitest';
import { endpoints } from '../../../src/catalog/endpoints/index.js';
import { cacheKey } from '../../../src/catalog/service.js';
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
    expect(cacheKey(home, { page: 1 })).not.toBe(cacheKey(endpoints[3]!, { page: 1 }));
  });
});

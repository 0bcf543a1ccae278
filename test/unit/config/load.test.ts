import { describe, expect, it } from 'vitest';
import { checkTtlOverrides, endpoints, freshSeconds } from '../../../src/catalog/endpoints/index.js';
import { ConfigError, loadConfig } from '../../../src/config/load.js';

describe('loadConfig', () => {
  it('fills every default from an empty environment', () => {
    expect(loadConfig({})).toEqual({
      PORT: 3000,
      HOST: '0.0.0.0',
      UPSTREAM_BASE_URLS: ['https://anichin.cafe'],
      UPSTREAM_SERIES_PATH: undefined,
      UPSTREAM_LIST_PATH: undefined,
      UPSTREAM_TIMEOUT_S: 10,
      SOLVER: { kind: 'auto' },
      CHROMIUM_PATH: '/usr/bin/chromium',
      RATE_LIMIT_MAX: 50,
      RATE_LIMIT_WINDOW_S: 3600,
      REPORT_RATE_LIMIT_MAX: 5,
      CACHE_MAX_MB: 64,
      CACHE_TTL_OVERRIDES: {},
      TRUST_PROXY: false,
      DATA_DIR: './data',
      ADMIN_TOKEN: undefined,
      PUBLIC_URL: undefined,
      STALE_WHILE_REVALIDATE_S: 86400,
      STALE_IF_ERROR_S: 604800,
      ANSWER_STORE_MAX_MB: 512,
      CRAWL_ENABLED: true,
      CRAWL_INTERVAL_S: 3,
      LOG_LEVEL: 'info',
    });
  });

  it('reads and normalises given values', () => {
    const config = loadConfig({
      PORT: '8080',
      UPSTREAM_BASE_URLS: ' https://a.example/ , http://127.0.0.2:4000 ',
      UPSTREAM_SERIES_PATH: 'anime',
      UPSTREAM_LIST_PATH: '/daftar',
      TRUST_PROXY: 'loopback, 10.0.0.0/8',
      LOG_LEVEL: 'warn',
    });
    expect(config.PORT).toBe(8080);
    expect(config.UPSTREAM_BASE_URLS).toEqual(['https://a.example', 'http://127.0.0.2:4000']);
    expect(config.UPSTREAM_SERIES_PATH).toBe('/anime/');
    expect(config.UPSTREAM_LIST_PATH).toBe('/daftar/');
    expect(config.TRUST_PROXY).toEqual(['loopback', '10.0.0.0/8']);
    expect(config.LOG_LEVEL).toBe('warn');
  });

  it('takes / as the series path of a site whose series pages sit at the root', () => {
    expect(loadConfig({ UPSTREAM_SERIES_PATH: '/' }).UPSTREAM_SERIES_PATH).toBe('/');
  });

  it('takes a hop count for TRUST_PROXY', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
  });

  it('keeps an ADMIN_TOKEN of 24 characters or more, trimmed', () => {
    expect(loadConfig({ ADMIN_TOKEN: ' 0123456789abcdef01234567 ' }).ADMIN_TOKEN).toBe('0123456789abcdef01234567');
  });

  it('keeps a redis:// or rediss:// REDIS_URL, trimmed', () => {
    expect(loadConfig({ REDIS_URL: ' redis://:secret@redis:6379/2 ' }).REDIS_URL).toBe('redis://:secret@redis:6379/2');
    expect(loadConfig({ REDIS_URL: 'rediss://cache.example:6380' }).REDIS_URL).toBe('rediss://cache.example:6380');
    expect(loadConfig({}).REDIS_URL).toBeUndefined();
  });

  it('treats an empty or blank variable as unset, and reads a value with spaces around it', () => {
    expect(loadConfig({ PORT: '' }).PORT).toBe(3000);
    expect(loadConfig({ PORT: '  ' }).PORT).toBe(3000);
    expect(loadConfig({ PORT: ' 8080 ' }).PORT).toBe(8080);
    expect(loadConfig({ UPSTREAM_TIMEOUT_MS: ' 2500 ' }).UPSTREAM_TIMEOUT_S).toBe(2.5);
  });

  it.each([
    ['PORT', 'abc', /PORT="abc": PORT must be a whole number/],
    ['PORT', '70000', /PORT="70000": PORT must be at most 65535/],
    ['UPSTREAM_TIMEOUT_S', '1e4', /UPSTREAM_TIMEOUT_S="1e4": UPSTREAM_TIMEOUT_S must be seconds from 0.1 to 120, such as 10 or 0.5/],
    ['UPSTREAM_TIMEOUT_S', '0.05', /UPSTREAM_TIMEOUT_S="0.05": UPSTREAM_TIMEOUT_S must be at least 0.1/],
    ['CRAWL_INTERVAL_S', '0.0001', /CRAWL_INTERVAL_S="0.0001": CRAWL_INTERVAL_S must be seconds from 0 to 3600/],
    ['RATE_LIMIT_WINDOW_S', '90000', /RATE_LIMIT_WINDOW_S="90000": RATE_LIMIT_WINDOW_S must be at most 86400/],
    ['UPSTREAM_BASE_URLS', 'anichin.cafe', /UPSTREAM_BASE_URLS="anichin.cafe": "anichin.cafe" is not a URL/],
    ['UPSTREAM_BASE_URLS', 'https://a.example/seri/', /must be an http\(s\) origin with no path/],
    ['UPSTREAM_SERIES_PATH', '/a/b/', /UPSTREAM_SERIES_PATH="\/a\/b\/": UPSTREAM_SERIES_PATH must be one path segment/],
    ['UPSTREAM_LIST_PATH', '/', /UPSTREAM_LIST_PATH="\/": UPSTREAM_LIST_PATH must be one path segment such as \/anime\//],
    ['RATE_LIMIT_MAX', '0', /RATE_LIMIT_MAX="0": RATE_LIMIT_MAX must be at least 1/],
    ['TRUST_PROXY', 'true', /TRUST_PROXY="true": .*forged X-Forwarded-For/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL="loud": LOG_LEVEL must be one of/],
    [
      'SOLVER',
      'browser',
      /SOLVER="browser": SOLVER must be auto, chromium, off, or the URL of a FlareSolverr service such as http:\/\/127.0.0.1:8191/,
    ],
    [
      'SOLVER',
      'flaresolverr',
      /SOLVER="flaresolverr": SOLVER takes the FlareSolverr service's URL itself, such as http:\/\/127.0.0.1:8191/,
    ],
    ['SOLVER', 'http://127.0.0.1:8191/v1', /SOLVER="http:\/\/127.0.0.1:8191\/v1": SOLVER must be auto, chromium, off, or the URL/],
    ['CHROMIUM_PATH', 'chromium', /CHROMIUM_PATH="chromium": CHROMIUM_PATH must be an absolute path/],
    ['ADMIN_TOKEN', 'short', /ADMIN_TOKEN="short": ADMIN_TOKEN must be at least 24 characters/],
    ['REDIS_URL', 'localhost:6379', /REDIS_URL="localhost:6379": REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
    ['REDIS_URL', 'http://redis:6379', /REDIS_URL="http:\/\/redis:6379": REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
  ])('stops on a bad %s (%s) with a message naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('reads SOLVER as a kind, or as the URL of a FlareSolverr service', () => {
    expect(loadConfig({ SOLVER: ' chromium ' }).SOLVER).toEqual({ kind: 'chromium' });
    expect(loadConfig({ SOLVER: 'off' }).SOLVER).toEqual({ kind: 'off' });
    expect(loadConfig({ SOLVER: 'http://127.0.0.1:8191/' }).SOLVER).toEqual({ kind: 'flaresolverr', url: 'http://127.0.0.1:8191' });
  });

  it('reads every duration in seconds, to the millisecond', () => {
    const config = loadConfig({ UPSTREAM_TIMEOUT_S: '1.5', RATE_LIMIT_WINDOW_S: '60', CRAWL_INTERVAL_S: '0.015', STALE_IF_ERROR_S: '0' });
    expect([config.UPSTREAM_TIMEOUT_S, config.RATE_LIMIT_WINDOW_S, config.CRAWL_INTERVAL_S, config.STALE_IF_ERROR_S]).toEqual([
      1.5, 60, 0.015, 0,
    ]);
  });

  it('reads CACHE_TTL_OVERRIDES as whole seconds per endpoint path', () => {
    expect(loadConfig({ CACHE_TTL_OVERRIDES: ' /catalog/home=60 , /catalog/series/{slug}=300,' }).CACHE_TTL_OVERRIDES).toEqual({
      '/catalog/home': 60,
      '/catalog/series/{slug}': 300,
    });
  });

  it.each(['/catalog/home', '/catalog/home=0', '/catalog/home=604801', 'home=60', '/catalog/home=1.5'])(
    'stops on a CACHE_TTL_OVERRIDES entry "%s" that is no path and whole seconds',
    (entry) => {
      expect(() => loadConfig({ CACHE_TTL_OVERRIDES: `/catalog/genres=60,${entry}` })).toThrow(
        `CACHE_TTL_OVERRIDES="/catalog/genres=60,${entry}": "${entry}" must be an endpoint's path and whole seconds from 1 to 604800, like /catalog/home=60`,
      );
    },
  );

  it("gives an endpoint its override's freshness, and every other the table's", () => {
    const config = loadConfig({ CACHE_TTL_OVERRIDES: '/catalog/genres/{slug}=45' });
    const fresh = Object.fromEntries(endpoints.map((endpoint) => [endpoint.path, freshSeconds(endpoint, config)]));
    expect(fresh).toEqual({
      '/catalog/home': 300,
      '/catalog/search': 600,
      '/catalog/genres': 43200,
      '/catalog/ongoing-series': 600,
      '/catalog/popular-series': 1800,
      '/catalog/new-movie': 1800,
      '/catalog/series/{slug}': 600,
      '/catalog/episode/{slug}': 3600,
      '/catalog/genres/{slug}': 45,
      '/catalog/studios/{slug}': 600,
      '/catalog/networks/{slug}': 600,
      '/catalog/countries/{slug}': 600,
      '/catalog/completed-series': 600,
      '/catalog/seasons/{slug}': 3600,
      '/catalog/schedule': 1800,
      '/catalog/az-list': 3600,
      '/catalog/series': 600,
    });
  });

  it('stops the start on a CACHE_TTL_OVERRIDES path that is no endpoint, naming it', () => {
    const config = loadConfig({ CACHE_TTL_OVERRIDES: '/catalog/home=60,/catalog/nothing=5' });
    expect(() => checkTtlOverrides(config)).toThrow(ConfigError);
    expect(() => checkTtlOverrides(config)).toThrow(
      /CACHE_TTL_OVERRIDES: \/catalog\/nothing is no endpoint; the endpoints are \/catalog\/home, /,
    );
    expect(() => checkTtlOverrides(loadConfig({ CACHE_TTL_OVERRIDES: '/catalog/home=60' }))).not.toThrow();
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT="x"[\s\S]*LOG_LEVEL="y"/);
  });
});

import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { checkTtlOverrides, endpoints, freshSeconds } from '../../../src/catalog/endpoints/index.js';
import { loadConfig } from '../../../src/config/load.js';
import { warnOfRetiredVariables } from '../../../src/config/retired.js';

const RETIRED_TTLS = [
  'CACHE_TTL_HOME_S',
  'CACHE_TTL_SEARCH_S',
  'CACHE_TTL_GENRES_S',
  'CACHE_TTL_ONGOING_S',
  'CACHE_TTL_POPULAR_S',
  'CACHE_TTL_NEW_MOVIE_S',
  'CACHE_TTL_SERIES_S',
  'CACHE_TTL_EPISODE_S',
  'CACHE_TTL_LISTING_S',
  'CACHE_TTL_SCHEDULE_S',
  'CACHE_TTL_SEASON_S',
  'CACHE_TTL_AZ_S',
];

/** The warnings logged for `env`, as pino writes them. */
function warningsFor(env: NodeJS.ProcessEnv): Array<{ level: number; variable: string; replacedBy: string; msg: string }> {
  const lines: string[] = [];
  warnOfRetiredVariables(env, pino({ level: 'info', base: undefined, timestamp: false }, { write: (line: string) => lines.push(line) }));
  return lines.map((line) => JSON.parse(line) as { level: number; variable: string; replacedBy: string; msg: string });
}

describe('a retired variable still set', () => {
  it('is named in one warning, with what replaced it and how to keep its value', () => {
    const warnings = warningsFor({ CACHE_TTL_HOME_S: ' 120 ', PORT: '8080', CACHE_TTL_LISTING_S: '900', CACHE_TTL_AZ_S: '' });
    expect(warnings).toEqual([
      {
        level: 40,
        variable: 'CACHE_TTL_HOME_S',
        replacedBy:
          "the endpoint table holds each endpoint's freshness (listed on /docs); to keep this one, set CACHE_TTL_OVERRIDES=/catalog/home=120",
        msg:
          "CACHE_TTL_HOME_S is no longer read and is ignored: the endpoint table holds each endpoint's freshness (listed on /docs); " +
          'to keep this one, set CACHE_TTL_OVERRIDES=/catalog/home=120',
      },
      expect.objectContaining({
        variable: 'CACHE_TTL_LISTING_S',
        replacedBy: expect.stringMatching(
          /set CACHE_TTL_OVERRIDES=\/catalog\/completed-series=900,\/catalog\/genres\/\{slug\}=900,\/catalog\/studios\/\{slug\}=900,\/catalog\/networks\/\{slug\}=900,\/catalog\/countries\/\{slug\}=900,\/catalog\/series=900$/,
        ),
      }),
    ]);
  });

  it('names the new name of a renamed variable, and a millisecond value in seconds', () => {
    const warnings = warningsFor({
      UPSTREAM_TIMEOUT_MS: '15000',
      RATE_LIMIT_WINDOW_MS: 'an hour',
      CRAWL_INTERVAL_MS: '250',
      CACHE_STALE_MAX_S: '7200',
      FLARESOLVERR_URL: 'http://127.0.0.1:8191',
    });
    expect(warnings.map(({ variable, replacedBy }) => [variable, replacedBy])).toEqual([
      ['UPSTREAM_TIMEOUT_MS', 'replaced by UPSTREAM_TIMEOUT_S, in seconds like every duration: set UPSTREAM_TIMEOUT_S=15'],
      ['RATE_LIMIT_WINDOW_MS', 'replaced by RATE_LIMIT_WINDOW_S, in seconds like every duration: set RATE_LIMIT_WINDOW_S=<seconds>'],
      ['CRAWL_INTERVAL_MS', 'replaced by CRAWL_INTERVAL_S, in seconds like every duration: set CRAWL_INTERVAL_S=0.25'],
      ['CACHE_STALE_MAX_S', 'renamed STALE_WHILE_REVALIDATE_S, same meaning: set STALE_WHILE_REVALIDATE_S=7200'],
      ['FLARESOLVERR_URL', "SOLVER takes the FlareSolverr service's URL itself: set SOLVER=http://127.0.0.1:8191"],
    ]);
    const suggested = Object.fromEntries(
      warnings.map(({ replacedBy }) => /set (\w+)=(\S+)$/.exec(replacedBy)!.slice(1, 3) as [string, string]),
    );
    delete suggested.RATE_LIMIT_WINDOW_S;
    expect(loadConfig(suggested)).toMatchObject({
      UPSTREAM_TIMEOUT_S: 15,
      CRAWL_INTERVAL_S: 0.25,
      STALE_WHILE_REVALIDATE_S: 7200,
      SOLVER: { kind: 'flaresolverr', url: 'http://127.0.0.1:8191' },
    });
  });

  it("reads a renamed variable's value under its new name while that is unset, and says so", () => {
    const env = { UPSTREAM_TIMEOUT_MS: '15000', RATE_LIMIT_WINDOW_MS: '600000', CRAWL_INTERVAL_MS: '250', CACHE_STALE_MAX_S: '7200' };
    expect(loadConfig(env)).toMatchObject({
      UPSTREAM_TIMEOUT_S: 15,
      RATE_LIMIT_WINDOW_S: 600,
      CRAWL_INTERVAL_S: 0.25,
      STALE_WHILE_REVALIDATE_S: 7200,
    });
    expect(warningsFor(env).map(({ msg }) => msg.split(':')[0])).toEqual([
      'UPSTREAM_TIMEOUT_MS is read as UPSTREAM_TIMEOUT_S=15 for now',
      'RATE_LIMIT_WINDOW_MS is read as RATE_LIMIT_WINDOW_S=600 for now',
      'CRAWL_INTERVAL_MS is read as CRAWL_INTERVAL_S=0.25 for now',
      'CACHE_STALE_MAX_S is read as STALE_WHILE_REVALIDATE_S=7200 for now',
    ]);
  });

  it('ignores a renamed variable when its new name is set too, or its value has no meaning in the new unit', () => {
    const env = { UPSTREAM_TIMEOUT_MS: '15000', UPSTREAM_TIMEOUT_S: '4', RATE_LIMIT_WINDOW_MS: 'an hour' };
    expect(loadConfig(env)).toMatchObject({ UPSTREAM_TIMEOUT_S: 4, RATE_LIMIT_WINDOW_S: 3600 });
    expect(warningsFor(env).map(({ msg }) => msg.split(':')[0])).toEqual([
      'UPSTREAM_TIMEOUT_MS is no longer read and is ignored',
      'RATE_LIMIT_WINDOW_MS is no longer read and is ignored',
    ]);
  });

  it('logs nothing when none is set', () => {
    expect(warningsFor({ PORT: '8080', CACHE_TTL_OVERRIDES: '/catalog/home=60' })).toEqual([]);
  });

  it('does not stop the start, and changes nothing', () => {
    expect(loadConfig({ CACHE_TTL_HOME_S: '120', CACHE_TTL_SERIES_S: 'not even a number' })).toEqual(loadConfig({}));
  });

  it.each(RETIRED_TTLS)('%s: the override its warning suggests is valid and keeps the value for the endpoints it covered', (variable) => {
    const [warning] = warningsFor({ [variable]: '77' });
    const overrides = /CACHE_TTL_OVERRIDES=(\S+)$/.exec(warning!.replacedBy)![1]!;
    const config = loadConfig({ CACHE_TTL_OVERRIDES: overrides });
    checkTtlOverrides(config);
    const paths = overrides.split(',').map((entry) => entry.replace(/=77$/, ''));
    const covered = endpoints.filter((endpoint) => freshSeconds(endpoint, config) === 77).map((endpoint) => endpoint.path);
    expect(covered.sort()).toEqual(paths.sort());
  });
});

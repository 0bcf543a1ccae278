import { setValue } from './envValue.js';
import type { Logger } from './logger.js';

/** What replaced a variable, in words, given the value it is still set to. */
type Replacement = (value: string) => string;

/**
 * The new variable and value a renamed variable's value carries over to, or undefined when it has no
 * such value. Operators who set the names the contract gave keep their setting, with a warning.
 */
type CarryOver = (value: string) => { name: string; value: string } | undefined;

/** What took a retired variable's place, and for a renamed one, how its value is still read. */
interface Retirement {
  replacedBy: Replacement;
  carryOver?: CarryOver;
}

/** A per-endpoint TTL: the endpoints it covered have their time in the endpoint table now. */
const ttlOf = (...paths: string[]): Retirement => ({
  replacedBy: (value) =>
    "the endpoint table holds each endpoint's freshness (listed on /docs); to keep this one, set " +
    `CACHE_TTL_OVERRIDES=${paths.map((path) => `${path}=${value}`).join(',')}`,
});

/** A knob only tests turned: the production value is fixed, and tests pass theirs to the factory. */
const fixed = (what: string): Retirement => ({ replacedBy: () => `now fixed: ${what}` });

/** A variable under a new name, its meaning unchanged. */
const renamed = (name: string): Retirement => ({
  replacedBy: (value) => `renamed ${name}, same meaning: set ${name}=${value}`,
  carryOver: (value) => ({ name, value }),
});

/** A duration in milliseconds, in seconds, or undefined when it is no whole number of milliseconds. */
const millisecondsInSeconds = (value: string): string | undefined => (/^\d+$/.test(value) ? String(Number(value) / 1000) : undefined);

/** A duration in milliseconds, now in seconds like every other. */
const inSeconds = (name: string): Retirement => ({
  replacedBy: (value) => `replaced by ${name}, in seconds like every duration: set ${name}=${millisecondsInSeconds(value) ?? '<seconds>'}`,
  carryOver: (value) => {
    const seconds = millisecondsInSeconds(value);
    return seconds === undefined ? undefined : { name, value: seconds };
  },
});

/**
 * Variables the service read once and reads no more, with what took each one's place. One still set
 * is named in one warning at start (main.ts). A renamed one (carryOver) is read under its new name
 * while that is unset; any other is ignored, so a deployment that kept it runs on the production default.
 */
const RETIRED_VARIABLES: Readonly<Record<string, Retirement>> = {
  CACHE_TTL_HOME_S: ttlOf('/catalog/home'),
  CACHE_TTL_SEARCH_S: ttlOf('/catalog/search'),
  CACHE_TTL_GENRES_S: ttlOf('/catalog/genres'),
  CACHE_TTL_ONGOING_S: ttlOf('/catalog/ongoing-series'),
  CACHE_TTL_POPULAR_S: ttlOf('/catalog/popular-series'),
  CACHE_TTL_NEW_MOVIE_S: ttlOf('/catalog/new-movie'),
  CACHE_TTL_SERIES_S: ttlOf('/catalog/series/{slug}'),
  CACHE_TTL_EPISODE_S: ttlOf('/catalog/episode/{slug}'),
  CACHE_TTL_LISTING_S: ttlOf(
    '/catalog/completed-series',
    '/catalog/genres/{slug}',
    '/catalog/studios/{slug}',
    '/catalog/networks/{slug}',
    '/catalog/countries/{slug}',
    '/catalog/series',
  ),
  CACHE_TTL_SCHEDULE_S: ttlOf('/catalog/schedule'),
  CACHE_TTL_SEASON_S: ttlOf('/catalog/seasons/{slug}'),
  CACHE_TTL_AZ_S: ttlOf('/catalog/az-list'),
  UPSTREAM_TIMEOUT_MS: inSeconds('UPSTREAM_TIMEOUT_S'),
  RATE_LIMIT_WINDOW_MS: inSeconds('RATE_LIMIT_WINDOW_S'),
  CRAWL_INTERVAL_MS: inSeconds('CRAWL_INTERVAL_S'),
  CACHE_STALE_MAX_S: renamed('STALE_WHILE_REVALIDATE_S'),
  FLARESOLVERR_URL: {
    replacedBy: (value) => `SOLVER takes the FlareSolverr service's URL itself: set SOLVER=${value}`,
    carryOver: (value) => ({ name: 'SOLVER', value }),
  },
  UPSTREAM_SOLVE_TIMEOUT_MS: fixed('a challenge solve may take 30 s'),
  BROWSER_IDLE_MS: fixed('the browser closes after 5 min without use'),
  UPSTREAM_BREAKER_THRESHOLD: fixed("an origin's breaker opens after 5 failed page fetches in a row"),
  UPSTREAM_BREAKER_COOLDOWN_MS: fixed("an origin's breaker stays open for 30 s"),
  UPSTREAM_ORIGIN_RECHECK_MS: fixed('a set-aside origin is tried again after 15 min'),
  UPSTREAM_BROWSER_MODE_MS: fixed('an origin that refuses a handed-over cookie is read through the browser for 15 min'),
  STATUS_PROBE_INTERVAL_S: fixed('the status probe runs every 5 min'),
  CRAWL_UPDATE_S: fixed("the crawler reads the site's update list every 10 min"),
  CRAWL_FULL_PASS_S: fixed('the crawler reads every series again every 24 h'),
};

/** What a renamed variable still set carries over to, when its new name is unset. */
function carriedOver(env: NodeJS.ProcessEnv, variable: string): { name: string; value: string } | undefined {
  const value = setValue(env, variable);
  const carry = RETIRED_VARIABLES[variable]?.carryOver;
  if (value === undefined || carry === undefined) return undefined;
  const target = carry(value);
  return target === undefined || setValue(env, target.name) !== undefined ? undefined : target;
}

/** The environment with each renamed variable's value under its new name, where that one is unset. */
export function withRenamedVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const carried = Object.keys(RETIRED_VARIABLES)
    .map((variable) => carriedOver(env, variable))
    .filter((target) => target !== undefined);
  return carried.length === 0 ? env : { ...env, ...Object.fromEntries(carried.map(({ name, value }) => [name, value])) };
}

/** One warning for each retired variable set (and not empty, as loadConfig counts it): what took its place. */
export function warnOfRetiredVariables(env: NodeJS.ProcessEnv, logger: Logger): void {
  for (const [variable, { replacedBy: replacement }] of Object.entries(RETIRED_VARIABLES)) {
    const value = setValue(env, variable);
    if (value === undefined) continue;
    const replacedBy = replacement(value);
    const carried = carriedOver(env, variable);
    const fate = carried === undefined ? 'is no longer read and is ignored' : `is read as ${carried.name}=${carried.value} for now`;
    logger.warn({ variable, replacedBy }, `${variable} ${fate}: ${replacedBy}`);
  }
}

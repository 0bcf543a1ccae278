// Settings the bench's sections share; each may be set through the environment for a shorter run.

/** The simulator's page latency: what a miss waits for the upstream. */
export const LATENCY_MS = Number(process.env.BENCH_UPSTREAM_LATENCY_MS ?? 300);
/** Load per server measured, in all of a section's rounds: rates and p99 settle well within it. */
export const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 6);
/**
 * Load on each server before its measured rounds, none of it measured: at the hit paths' rates,
 * thousands of answers, enough for V8 to compile and optimise the path before a round reads it.
 */
export const WARM_UP_SECONDS = 1;
/**
 * The rate limit is raised through config for the run, never disabled: its highest limit, 1,000,000,
 * in a 10 s window. A section at full speed sends cached hits by the million, which would use up an
 * hour's window partway, and the quota would then answer 429 instead of the path measured.
 */
export const NO_QUOTA = { RATE_LIMIT_MAX: '1000000', RATE_LIMIT_WINDOW_S: '10' };
/** About 10 KB: 20 series cards plus 15 ranked series. */
export const HIT_PATH = '/catalog/popular-series';

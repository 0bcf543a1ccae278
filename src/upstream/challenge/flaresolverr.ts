import { z } from 'zod';
import type { UpstreamAnswer, UpstreamFailure } from '../classify.js';
import { clearanceExpiry, type Clearance } from './clearance.js';
import type { ChallengeSolver } from './solver.js';

// A FlareSolverr-compatible service (FlareSolverr, Byparr): POST {url}/v1 with a `request.get`
// command. It must share our egress IP, or the wall refuses the cookie it hands back.

const Solution = z.object({
  status: z.literal('ok'),
  solution: z.object({
    url: z.string(),
    status: z.number(),
    userAgent: z.string(),
    response: z.string().optional(),
    cookies: z.array(
      z.object({
        name: z.string(),
        value: z.string(),
        domain: z.string().default(''),
        path: z.string().default('/'),
        expires: z.number().default(-1),
        httpOnly: z.boolean().default(false),
        secure: z.boolean().default(false),
      }),
    ),
  }),
});

export function createFlareSolverrSolver(options: { url: string; timeoutMs: number }): ChallengeSolver {
  const endpoint = new URL('/v1', options.url).href;

  async function requestGet(url: string, returnOnlyCookies: boolean): Promise<z.infer<typeof Solution>['solution']> {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cmd: 'request.get', url, maxTimeout: options.timeoutMs, returnOnlyCookies }),
      // The service enforces maxTimeout itself; the extra seconds are for its own overhead.
      signal: AbortSignal.timeout(options.timeoutMs + 5000),
    });
    const parsed = Solution.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new Error(`FlareSolverr at ${endpoint} did not return a solution (HTTP ${response.status})`);
    return parsed.data.solution;
  }

  return {
    kind: 'flaresolverr',
    async solve(url) {
      const solution = await requestGet(url, true);
      const obtainedAt = Date.now();
      return {
        origin: new URL(url).origin,
        userAgent: solution.userAgent,
        // FlareSolverr returns no request headers; the User-Agent alone has to do.
        clientHints: {},
        cookies: solution.cookies,
        obtainedAt,
        expiresAt: clearanceExpiry(solution.cookies, obtainedAt),
      } satisfies Clearance;
    },
    async openTransport() {
      return {
        async fetch(url): Promise<UpstreamAnswer | UpstreamFailure> {
          try {
            const solution = await requestGet(url, false);
            // FlareSolverr's status is not reliable (it may say 200 for anything); the classifier judges the body too.
            return { url: solution.url, status: solution.status, headers: {}, body: Buffer.from(solution.response ?? '') };
          } catch (error) {
            return { url, failure: error instanceof Error ? error.message : String(error) };
          }
        },
        close: async () => undefined,
      };
    },
    close: async () => undefined,
  };
}

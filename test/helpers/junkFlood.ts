import { Agent, get } from 'node:http';

// A client past its quota that goes on: requests whose URLs are all different and long, as a script
// rotating junk in the query would send, many at a time on kept-alive connections.

const QUERY_BYTES = 14 * 1024;
const CONCURRENCY = 50;

export interface JunkFlood {
  /** The status of one GET of `path`. */
  status(path: string): Promise<number>;
  /** Sends `count` junk requests (numbered from `from`, so that no two URLs are the same), `CONCURRENCY` at a time; how many were not refused. */
  flood(from: number, count: number): Promise<number>;
  close(): void;
}

export function junkFlood(origin: string): JunkFlood {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const status = (path: string) =>
    new Promise<number>((resolve, reject) => {
      get(origin + path, { agent }, (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode!));
      }).once('error', reject);
    });
  const junk = (index: number) => `/catalog/genres?n${index}=${'x'.repeat(QUERY_BYTES)}`;
  return {
    status,
    async flood(from, count) {
      let notRefused = 0;
      for (let start = from; start < from + count; start += CONCURRENCY) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(CONCURRENCY, from + count - start) }, (_, i) => status(junk(start + i))),
        );
        notRefused += batch.filter((code) => code !== 429).length;
      }
      return notRefused;
    },
    close: () => agent.destroy(),
  };
}

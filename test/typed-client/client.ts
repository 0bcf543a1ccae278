import createClient from 'openapi-fetch';
import type { paths } from './api.js';

// A client author's small program, typed by the generated api.d.ts: a series, its latest episode,
// and the URL of that episode's first video server. Run: node client.js <base URL> <series slug>.

type Problem = { error: { code: string; message: string } };

const failure = (what: string, problem: Problem) => new Error(`${what}: ${problem.error.code}: ${problem.error.message}`);

export async function latestEpisodeServer(baseUrl: string, seriesSlug: string): Promise<string> {
  const client = createClient<paths>({ baseUrl });

  const series = await client.GET('/catalog/series/{slug}', { params: { path: { slug: seriesSlug } } });
  if (series.error) throw failure(`series ${seriesSlug}`, series.error);
  const latest = series.data.data.latestEpisode;
  if (latest === null) throw new Error(`${series.data.data.title} has no episode yet`);

  const episode = await client.GET('/catalog/episode/{slug}', { params: { path: { slug: latest.slug } } });
  if (episode.error) throw failure(`episode ${latest.slug}`, episode.error);
  const server = episode.data.data.servers[0];
  if (server === undefined) throw new Error(`${episode.data.data.title} has no video server`);
  return server.url;
}

const [baseUrl, seriesSlug] = process.argv.slice(2);
if (baseUrl === undefined || seriesSlug === undefined) throw new Error('usage: node client.js <base URL> <series slug>');
console.log(await latestEpisodeServer(baseUrl, seriesSlug));

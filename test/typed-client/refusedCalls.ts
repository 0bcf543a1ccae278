import createClient from 'openapi-fetch';
import type { paths } from './api.js';

// Calls the generated types must refuse: each @ts-expect-error that finds no error fails the
// compile, so the types cannot quietly be `any`.

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' });

export async function refusedCalls(): Promise<void> {
  // @ts-expect-error: no such path
  await client.GET('/catalog/nope');
  // @ts-expect-error: page is a number
  await client.GET('/catalog/ongoing-series', { params: { query: { page: 'two' } } });
  // @ts-expect-error: a search needs q
  await client.GET('/catalog/search', { params: { query: { page: 2 } } });
  // @ts-expect-error: the catalog takes no POST
  await client.POST('/catalog/home');

  const { data } = await client.GET('/catalog/series/{slug}', { params: { path: { slug: 'renegade-immortal' } } });
  // @ts-expect-error: a series detail has no "name", only "title"
  console.log(data?.data.name);
  // @ts-expect-error: rating is a number or null, never text
  const rating: string | undefined = data?.data.rating;
  console.log(rating);
}

import { LayoutChangedError, PagePastEndError } from '../parsers/errors.js';
import type { UpstreamPage } from '../upstream/pageFetch.js';
import { pageText } from '../upstream/siteLinks.js';
import { answerBody } from './answerBody.js';
import { endpoints } from './endpoints/index.js';

// A page's answer: its text from its bytes, one endpoint's parser on it, and the answer's bytes. Run
// on a parse thread (parseTask.ts); the bench runs it in the process too, as the reference of the thread's round trip.

/** A fetched page as it arrived, and when it was fetched (the answer's meta.fetchedAt). */
export interface FetchedPage extends Pick<UpstreamPage, 'body' | 'url' | 'servedBy' | 'siteOrigins'> {
  fetchedAt: number;
}

export interface PageToAnswer {
  /** The endpoint's table path, e.g. "/catalog/series/{slug}". */
  endpointPath: string;
  page: FetchedPage;
  /** The input the endpoint's schema validated. */
  input: Record<string, unknown>;
}

/**
 * What a parse gave, as plain data that crosses threads: the answer's bytes and ETag (answerBody.ts),
 * or the parser's typed verdict on the page.
 */
export type PageOutcome =
  | { kind: 'parsed'; body: Uint8Array; etag: string; missing: string[] }
  | { kind: 'layout-changed'; pageKind: string; missing: string[] }
  | { kind: 'past-end'; pageKind: string; page: number };

export function answerPage({ endpointPath, page, input }: PageToAnswer): PageOutcome {
  const endpoint = endpoints.find((entry) => entry.path === endpointPath);
  if (endpoint === undefined) throw new Error(`No endpoint ${endpointPath}`);
  try {
    const parsed = endpoint.parse(pageText(page), page.url, input as never);
    const pagination = endpoint.paginated ? parsed.pagination : null;
    const { body, etag } = answerBody(JSON.stringify({ data: parsed.data, pagination }), page.url, page.fetchedAt);
    return { kind: 'parsed', body, etag, missing: parsed.missing };
  } catch (error) {
    if (error instanceof LayoutChangedError) return { kind: 'layout-changed', pageKind: error.pageKind, missing: error.missing };
    if (error instanceof PagePastEndError) return { kind: 'past-end', pageKind: error.pageKind, page: error.page };
    throw error;
  }
}

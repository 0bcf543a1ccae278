import { BroadcastChannel, workerData } from 'node:worker_threads';
import { LayoutChangedError, PagePastEndError } from '../parsers/errors.js';
import { endpoints } from './endpoints/index.js';

// What runs on a parse worker thread (see pageParser.ts): one endpoint's parser on one page.

export interface ParseTask {
  /** Said on the pool's started channel when the parse starts, so that the parse deadline counts from there. */
  taskId: number;
  /** The endpoint's table path, e.g. "/catalog/series/{slug}". */
  endpointPath: string;
  html: string;
  pageUrl: string;
  /** The input the endpoint's schema validated. */
  input: Record<string, unknown>;
}

/** What each thread of the pool is given at its start. */
export interface ParseThreadData {
  /** The BroadcastChannel on which a thread says which task it starts. */
  startedChannelName: string;
}

/** The message a thread posts on the started channel. */
export interface ParseStarted {
  taskId: number;
}

// One channel for the thread's life, not one per task.
const startedChannel = new BroadcastChannel((workerData as ParseThreadData).startedChannelName);
startedChannel.unref();

/**
 * What a parse gave, as plain data that crosses threads: the answer's `{data, pagination}` already
 * serialized (it is sent on as JSON anyway), or the parser's typed verdict on the page.
 */
export type ParseOutcome =
  | { kind: 'parsed'; content: string; missing: string[] }
  | { kind: 'layout-changed'; pageKind: string; missing: string[] }
  | { kind: 'past-end'; pageKind: string; page: number };

export default function parseTask({ taskId, endpointPath, html, pageUrl, input }: ParseTask): ParseOutcome {
  startedChannel.postMessage({ taskId } satisfies ParseStarted);
  const endpoint = endpoints.find((entry) => entry.path === endpointPath);
  if (endpoint === undefined) throw new Error(`No endpoint ${endpointPath}`);
  try {
    const parsed = endpoint.parse(html, pageUrl, input as never);
    const pagination = endpoint.paginated ? parsed.pagination : null;
    return { kind: 'parsed', content: JSON.stringify({ data: parsed.data, pagination }), missing: parsed.missing };
  } catch (error) {
    if (error instanceof LayoutChangedError) return { kind: 'layout-changed', pageKind: error.pageKind, missing: error.missing };
    if (error instanceof PagePastEndError) return { kind: 'past-end', pageKind: error.pageKind, page: error.page };
    throw error;
  }
}

import { setTimeout as sleep } from 'node:timers/promises';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { LayoutChangedError, PagePastEndError } from '../parsers/errors.js';
import { UpstreamTimeoutError, UpstreamUnreadablePageError } from '../upstream/errors.js';
import type { AnyEndpoint } from './endpoints/index.js';
import type { ParseOutcome, ParseTask } from './parseTask.js';

// Pages are parsed on worker threads, so that no page, whatever its size or shape, can hold the
// event loop: htmlparser2's open-element stack makes deep nesting quadratic, and tag patterns that
// rescan unclosed markup are too, so no pre-scan short of parsing could vouch for a page. A parse
// that passes the deadline has its thread stopped and the request gets a typed error; /health and
// cached hits never wait on it. Piscina keeps the pool (a stopped thread is replaced).

/**
 * How long one page may take to parse, from when its thread starts it: a real 300 KB page takes
 * ~4 ms warm, and the margin covers a first parse in cold code on a loaded machine, since a page
 * that passes it is remembered as failed.
 */
export const PARSE_DEADLINE_MS = 2000;
// How long a page may wait for a thread: parses ahead of it end within their deadline, but a thread
// that replaces a stopped one first loads the parsers, which is not the page's time.
const PARSE_WAIT_MS = 5000;
// How long the first pages wait for the process's first thread to load the parsers (a fraction of
// a second on a quiet machine; several seconds from the TypeScript sources on a loaded one).
const THREAD_LOAD_WAIT_MS = 30_000;
// One thread, kept loaded; a stopped thread is replaced. A page held to its deadline delays the
// misses queued behind it, never /health or a cached answer, and a second thread cost a second heap
// in every instance's memory. A bound on the thread's heap turns a page that would need more into an
// error of that page, not of the process.
const THREADS = 1;
// A real page's tree is a few MB (the long episode lists are streamed, not built); a looser bound
// lets the thread's heap, and so the process's memory, grow far past what a page needs. A young
// generation much smaller than this makes the thread collect garbage through every long page.
const THREAD_HEAP_MB = 64;
const THREAD_YOUNG_HEAP_MB = 32;

/** The answer's `{data, pagination}` as JSON, and the optional blocks the page lacked. */
export interface ParsedAnswer {
  content: string;
  missing: string[];
}

// Run from the TypeScript sources (tsx, vitest), the threads load the task through tsx as well.
const fromSources = import.meta.url.endsWith('.ts');

// One pool per process: threads are a resource of the process, shared by every app in it.
let pool: Piscina<ParseTask, ParseOutcome> | undefined;
let ready: Promise<void> | undefined;
let loaded = false;

function threads(): Piscina<ParseTask, ParseOutcome> {
  pool ??= new Piscina<ParseTask, ParseOutcome>({
    filename: new URL(fromSources ? './parseTask.ts' : './parseTask.js', import.meta.url).href,
    execArgv: fromSources ? ['--import', 'tsx'] : [],
    minThreads: THREADS,
    maxThreads: THREADS,
    idleTimeout: Number.POSITIVE_INFINITY,
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB, maxYoungGenerationSizeMb: THREAD_YOUNG_HEAP_MB },
  });
  return pool;
}

/**
 * Starts a thread and loads the parsers in it (once per process), so that the first miss does not
 * wait for them; the app calls it as it is created.
 */
export function warmPageParser(): Promise<void> {
  ready ??= threads()
    .run({ endpointPath: '/catalog/genres', html: '', pageUrl: 'http://localhost/', input: {} })
    .then(
      () => {
        loaded = true;
      },
      () => undefined,
    );
  return ready;
}

/**
 * The endpoint's parse of one page, on a worker thread, within PARSE_DEADLINE_MS. Throws the
 * parser's typed errors, and UpstreamUnreadablePageError for a page not parsed within the deadline
 * or the thread's memory bound.
 */
export async function parsePage(endpoint: AnyEndpoint, html: string, pageUrl: string, input: Record<string, unknown>): Promise<ParsedAnswer> {
  if (!loaded && !(await Promise.race([warmPageParser().then(() => true), sleep(THREAD_LOAD_WAIT_MS, false, { ref: false })])))
    throw new UpstreamTimeoutError(`The parse thread did not load within ${THREAD_LOAD_WAIT_MS} ms`, pageUrl);
  const deadline = new AbortController();
  let timer = setTimeout(() => deadline.abort(), PARSE_WAIT_MS);
  const { port1: started, port2 } = new MessageChannel();
  let running = false;
  started.once('message', () => {
    running = true;
    clearTimeout(timer);
    timer = setTimeout(() => deadline.abort(), PARSE_DEADLINE_MS);
  });
  let outcome: ParseOutcome;
  try {
    outcome = await threads().run({ endpointPath: endpoint.path, html, pageUrl, input, started: port2 }, { signal: deadline.signal, transferList: [port2] });
  } catch (error) {
    // Never started: the thread was busy (the page is not to blame, and is not remembered as failed).
    if (deadline.signal.aborted && !running)
      throw new UpstreamTimeoutError(`The page waited over ${PARSE_WAIT_MS} ms for a parse thread`, pageUrl, { cause: error });
    if (deadline.signal.aborted || (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY')
      throw new UpstreamUnreadablePageError(`The page was not parsed within ${PARSE_DEADLINE_MS} ms and ${THREAD_HEAP_MB} MB`, pageUrl, 'unparsable', {
        cause: error,
      });
    throw error;
  } finally {
    clearTimeout(timer);
    started.close();
  }
  switch (outcome.kind) {
    case 'parsed':
      return { content: outcome.content, missing: outcome.missing };
    case 'layout-changed':
      throw new LayoutChangedError(outcome.pageKind, outcome.missing);
    case 'past-end':
      throw new PagePastEndError(outcome.pageKind, outcome.page);
  }
}

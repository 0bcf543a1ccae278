import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { BroadcastChannel, threadId } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { LayoutChangedError, PagePastEndError } from '../parsers/errors.js';
import { ServiceBusyError, UpstreamUnreadablePageError } from '../upstream/errors.js';
import { CONNECTION_TURNS } from '../upstream/connectionTurns.js';
import type { AnyEndpoint } from './endpoints/index.js';
import type { AnswerBody } from './answerBody.js';
import type { FetchedPage, PageOutcome } from './pageAnswer.js';
import type { ParseStarted, ParseTask, ParseThreadData } from './parseTask.js';

// Pages are parsed on worker threads, so that no page, whatever its size or shape, can hold the
// event loop: htmlparser2's open-element stack makes deep nesting quadratic, and tag patterns that
// rescan unclosed markup are too, so no pre-scan short of parsing could vouch for a page. A parse
// that passes the deadline has its thread stopped and the request gets a typed error; /health and
// cached hits never wait on it. Piscina keeps the pool (a stopped thread is replaced) and its queue.

/**
 * How long one page may take to parse, from when its thread starts it: a real 300 KB page takes
 * ~4 ms warm, and the margin covers a first parse in cold code on a loaded machine, since a page
 * that passes it is remembered as failed.
 * @internal exported for the tests: the unreadable-page tests advance fake timers by it.
 */
export const PARSE_DEADLINE_MS = 2000;
// How long the first pages wait for the process's first thread to load the parsers (a fraction of
// a second on a quiet machine; several seconds from the TypeScript sources on a loaded one).
const THREAD_LOAD_WAIT_MS = 30_000;
// A thread per core but one, kept loaded; a stopped thread is replaced. The main thread keeps a core
// for the HTTP work, the JSON and the cached hits: on two cores a second parse thread would parse a
// burst of misses no faster and would cost a heap of its own. A page held to its deadline holds one
// thread, never /health or a cached answer. At most 4: each thread costs a heap of up to
// THREAD_HEAP_MB + THREAD_YOUNG_HEAP_MB, and 4 threads parse far more pages a second than the
// upstream connections (CONNECTION_TURNS) can fetch from a real site. A bound on each thread's heap
// turns a page that would need more into an error of that page, not of the process.
const MAX_THREADS = 4;
const THREADS = Math.max(1, Math.min(availableParallelism() - 1, MAX_THREADS));
/**
 * Pages that may wait for a thread, per thread. A fetched page is parsed however long it waits (the
 * wait is ours, not the page's), so the bound is on how many wait: a search or listing page parses
 * in a few ms, so a full queue drains in well under a second; only pages held to their deadline make
 * it longer, and each such page is remembered as failed. A miss that would find the queue full is
 * refused before its fetch (checkParseRoom), so the site is not asked for a page we cannot parse.
 */
const QUEUED_PAGES_PER_THREAD = 32;
const MAX_QUEUED_PAGES = THREADS * QUEUED_PAGES_PER_THREAD;
/**
 * Room beyond MAX_QUEUED_PAGES for pages whose fetch was admitted before the queue filled: at most
 * one per upstream connection, so no fetched page is refused.
 */
const QUEUE_ROOM_FOR_FETCHED = CONNECTION_TURNS.turns;
/** Retry-After of a full parse queue: it drains within a second or so. */
const PARSE_BUSY_RETRY_AFTER_SECONDS = 1;
// A real page's tree is a few MB (the long episode lists are streamed, not built); a looser bound
// lets the thread's heap, and so the process's memory, grow far past what a page needs. A young
// generation much smaller than this makes the thread collect garbage through every long page.
const THREAD_HEAP_MB = 64;
const THREAD_YOUNG_HEAP_MB = 32;

/** The answer's bytes and ETag, and the optional blocks the page lacked. */
export interface ParsedAnswer extends AnswerBody {
  missing: string[];
}

// Run from the TypeScript sources (tsx, vitest), the threads load the task through tsx as well,
// unless they are given the task's build.
const fromSources = import.meta.url.endsWith('.ts');
let builtTask: string | undefined;

/**
 * Has the threads load the task from its JavaScript build (a path), not through tsx from its source.
 * @internal for the tests' setup: vitest runs this module from its source, and each thread would load
 * the task's modules one by one through tsx's loader, at every start and at every replacement of a
 * stopped thread; the build (scripts/programBuild.mjs) is made once per run.
 */
export function loadParseTaskFrom(path: string): void {
  builtTask = path;
}

/** The file a thread loads its task from, and how. */
function taskFile(): { filename: string; execArgv: string[] } {
  if (builtTask !== undefined) return { filename: pathToFileURL(builtTask).href, execArgv: [] };
  if (fromSources) return { filename: new URL('./parseTask.ts', import.meta.url).href, execArgv: ['--import', 'tsx'] };
  return { filename: new URL('./parseTask.js', import.meta.url).href, execArgv: [] };
}

// One pool per process: threads are a resource of the process, shared by every app in it.
let pool: Piscina<ParseTask, PageOutcome> | undefined;
let ready: Promise<void> | undefined;
let loaded = false;

// A thread says on one long-lived channel which task it starts, and the task's deadline starts then.
// A MessageChannel per task, its port transferred to the thread, is not freed on either side: both
// heaps grow with every parse until the thread dies out of memory (and its page is reported
// unparsable). The name is unique to this
// pool, so that no other pool in the process hears its threads.
const startedChannelName = `parse-started-${process.pid}-${threadId}-${randomUUID()}`;
let startedChannel: BroadcastChannel | undefined;
/** What to do when a thread starts a task, by task id; a task's entry goes when it settles. */
const onStart = new Map<number, () => void>();
let lastTaskId = 0;

function threads(): Piscina<ParseTask, PageOutcome> {
  if (pool === undefined) {
    startedChannel = new BroadcastChannel(startedChannelName);
    // The channel must not keep the process alive: the pool's threads are unreferenced as well.
    startedChannel.unref();
    startedChannel.onmessage = (event) => onStart.get((event as { data: ParseStarted }).data.taskId)?.();
    const workerData: ParseThreadData = { startedChannelName };
    pool = new Piscina<ParseTask, PageOutcome>({
      ...taskFile(),
      workerData,
      minThreads: THREADS,
      maxThreads: THREADS,
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB, maxYoungGenerationSizeMb: THREAD_YOUNG_HEAP_MB },
    });
  }
  return pool;
}

/**
 * Starts a thread and loads the parsers in it (once per process), so that the first miss does not
 * wait for them; the app calls it as it is created.
 */
export function warmPageParser(): Promise<void> {
  ready ??= threads()
    .run({
      taskId: 0,
      endpointPath: '/catalog/genres',
      page: { body: new Uint8Array(), url: 'http://localhost/', servedBy: 'http://localhost', siteOrigins: [], fetchedAt: 0 },
      input: {},
    })
    .then(
      () => {
        loaded = true;
      },
      () => undefined,
    );
  return ready;
}

/**
 * The page's memory, to move to the thread rather than copy. A page's bytes are the only view of
 * their memory (UpstreamPage.body), though not always all of it: a decoded page ends inside zlib's
 * output chunk. Only a short Buffer shares its memory, as a slice of Node's shared pool (Node
 * allocates from it below half its size), which must stay here (and cannot move).
 */
const movable = (body: Uint8Array): ArrayBuffer[] =>
  body.buffer instanceof ArrayBuffer && body.byteLength >= Buffer.poolSize >>> 1 ? [body.buffer] : [];

const parseBusy = (why: string) =>
  new ServiceBusyError(`${why}; this service's parse threads are all busy`, PARSE_BUSY_RETRY_AFTER_SECONDS);

/**
 * Throws ServiceBusyError when MAX_QUEUED_PAGES pages already wait for a parse thread: a miss asks
 * before it fetches, so that the site is not asked for a page that could not be parsed soon.
 */
export function checkParseRoom(): void {
  if (threads().queueSize >= MAX_QUEUED_PAGES) throw parseBusy(`${MAX_QUEUED_PAGES} pages already wait for a parse thread`);
}

/**
 * The endpoint's answer to one fetched page (its text, its parse, and the answer's bytes), on a worker
 * thread, to which the page's bytes move (they are no longer readable here), within `deadlineMs` (PARSE_DEADLINE_MS;
 * tests of pages held to it pass less) from when a thread starts it; the wait in the queue before
 * is not the page's. Throws the parser's typed errors, UpstreamUnreadablePageError for a page not
 * parsed within the deadline or the thread's memory bound, and ServiceBusyError when the queue is
 * full or the threads did not load.
 */
export async function parsePage(
  endpoint: AnyEndpoint,
  page: FetchedPage,
  input: Record<string, unknown>,
  deadlineMs = PARSE_DEADLINE_MS,
): Promise<ParsedAnswer> {
  if (!loaded && !(await Promise.race([warmPageParser().then(() => true), sleep(THREAD_LOAD_WAIT_MS, false, { ref: false })])))
    throw parseBusy(`The parse threads did not load within ${THREAD_LOAD_WAIT_MS} ms`);
  // Counted here, not by piscina's maxQueue, which does not count tasks that carry an abort signal.
  if (threads().queueSize >= MAX_QUEUED_PAGES + QUEUE_ROOM_FOR_FETCHED)
    throw parseBusy(`${MAX_QUEUED_PAGES + QUEUE_ROOM_FOR_FETCHED} pages already wait for a parse thread`);
  const deadline = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const taskId = ++lastTaskId;
  onStart.set(taskId, () => {
    onStart.delete(taskId);
    timer = setTimeout(() => deadline.abort(), deadlineMs);
  });
  let outcome: PageOutcome;
  try {
    outcome = await threads().run(
      { taskId, endpointPath: endpoint.path, page, input },
      { signal: deadline.signal, transferList: movable(page.body) },
    );
  } catch (error) {
    if (deadline.signal.aborted || (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY')
      throw new UpstreamUnreadablePageError(
        `The page was not parsed within ${deadlineMs} ms and ${THREAD_HEAP_MB} MB`,
        page.url,
        'unparsable',
        {
          cause: error,
        },
      );
    throw error;
  } finally {
    clearTimeout(timer);
    onStart.delete(taskId);
  }
  switch (outcome.kind) {
    case 'parsed':
      // The thread's memory, moved here (parseTask.ts), and exactly the answer's size.
      return {
        body: Buffer.from(outcome.body.buffer, outcome.body.byteOffset, outcome.body.byteLength),
        etag: outcome.etag,
        missing: outcome.missing,
      };
    case 'layout-changed':
      throw new LayoutChangedError(outcome.pageKind, outcome.missing);
    case 'past-end':
      throw new PagePastEndError(outcome.pageKind, outcome.page);
  }
}

import { ServiceBusyError } from './errors.js';

// Page fetches to the upstream take turns: at most `turns` run at once, so the site never gets more
// connections than that from this instance, and the rest wait here, in a queue that is ours. The
// wait is bounded in time and in length; a fetch that gets no turn is refused as busy, which is
// never the site's failure. A background fetch (the crawler) takes a turn only while no user's
// request waits, and holds at most `backgroundTurns`, so users always go first.
//
// Written here rather than taken from cockatiel's bulkhead: that one has no priorities, and a
// caller that gives up keeps its place in the queue until it reaches the front.

/** Whose fetch it is: a user's request waiting for its answer, or background work that can wait. */
export type FetchPriority = 'user' | 'background';

export interface ConnectionTurnsOptions {
  /** Page fetches that may run at once (the agent's sockets per host are sized to match). */
  turns: number;
  /** Of those, the most background fetches at once. */
  backgroundTurns: number;
  /** How long a fetch may wait for a turn before it is refused as busy. */
  waitMs: number;
  /** Fetches that may wait at once; one more is refused at once. */
  maxWaiting: number;
}

export interface ConnectionTurns {
  /** Waits for a turn and returns its release; throws ServiceBusyError when none comes in time. */
  take(priority: FetchPriority): Promise<() => void>;
}

/**
 * Page fetches at once, and the queue in front of them. 16 connections are what two or three people
 * browsing the site open (a browser opens six per host), a small share of the PHP workers even a
 * modest WordPress host runs, and they cost us only sockets and the bodies in flight. With pages of
 * 1 s, a burst of 60 misses is then served within about 4 s of waiting; a wait past 5 s is refused
 * as busy, not spent out of the page's own deadline. The queue's length bounds what a flood holds.
 * The crawler holds at most 2 of the 16, and only while no user's fetch waits.
 */
export const CONNECTION_TURNS: ConnectionTurnsOptions = { turns: 16, backgroundTurns: 2, waitMs: 5000, maxWaiting: 256 };

interface Waiter {
  grant(): void;
}

export function createConnectionTurns(options: ConnectionTurnsOptions): ConnectionTurns {
  let running = 0;
  let runningBackground = 0;
  const waiting: Record<FetchPriority, Waiter[]> = { user: [], background: [] };
  const retryAfterSeconds = Math.max(1, Math.ceil(options.waitMs / 1000));

  const backgroundMayStart = () => waiting.user.length === 0 && runningBackground < options.backgroundTurns;
  const mayStart = (priority: FetchPriority) => running < options.turns && (priority === 'user' || backgroundMayStart());

  function start(priority: FetchPriority): () => void {
    running++;
    if (priority === 'background') runningBackground++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      if (priority === 'background') runningBackground--;
      grantNext();
    };
  }

  function grantNext(): void {
    if (running >= options.turns) return;
    if (waiting.user.length > 0) waiting.user.shift()?.grant();
    else if (backgroundMayStart()) waiting.background.shift()?.grant();
  }

  const busy = (why: string) =>
    new ServiceBusyError(`${why}; this service's connections to the upstream are all in use`, retryAfterSeconds);

  return {
    take(priority) {
      if (mayStart(priority)) return Promise.resolve(start(priority));
      if (waiting.user.length + waiting.background.length >= options.maxWaiting)
        return Promise.reject(busy(`${options.maxWaiting} fetches already wait for a connection`));
      return new Promise((resolve, reject) => {
        const queue = waiting[priority];
        const waiter: Waiter = {
          grant() {
            clearTimeout(timer);
            resolve(start(priority));
          },
        };
        const timer = setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          reject(busy(`No connection to the upstream came free within ${options.waitMs} ms`));
        }, options.waitMs);
        queue.push(waiter);
      });
    },
  };
}

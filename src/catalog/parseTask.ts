import { BroadcastChannel, workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { answerPage, type PageOutcome, type PageToAnswer } from './pageAnswer.js';

// What runs on a parse worker thread (see pageParser.ts): one endpoint's parser on one page.

export interface ParseTask extends PageToAnswer {
  /** Said on the pool's started channel when the parse starts, so that the parse deadline counts from there. */
  taskId: number;
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

export default function parseTask(task: ParseTask): PageOutcome {
  startedChannel.postMessage({ taskId: task.taskId } satisfies ParseStarted);
  const outcome = answerPage(task);
  if (outcome.kind !== 'parsed') return outcome;
  // The answer's memory moves to the main thread as it is, not copied: it is the answer sent and kept there.
  return move({ [transferableSymbol]: outcome.body.buffer, [valueSymbol]: outcome }) as unknown as PageOutcome;
}

import { load as cheerioLoad } from 'cheerio';
import { parentPort, workerData } from 'node:worker_threads';
import { endpoints } from '../../src/catalog/endpoints/index.js';
import { medianTime } from './report.js';

// One side of the parse rows (our parse, or cheerio's default load) on a thread of its own, which the
// parse section starts twice and asks for rounds in turn: each side's heap then holds its own garbage
// alone, so that neither side's figure pays for collecting what the other left.

/** A page to time: the endpoint whose parser reads it, and what that parser is handed. */
export interface RoundPage {
  endpointPath: string;
  html: string;
  url: string;
  input: Record<string, unknown>;
}

/** What the section asks: a page to time from now on, or `runs` timed calls after `warmUp` untimed ones (the answer: their median, ms). */
export type RoundRequest = { page: RoundPage } | { runs: number; warmUp: number };

const side = (workerData as { side: 'ours' | 'cheerio' }).side;
let work: () => unknown = () => undefined;

parentPort!.on('message', (request: RoundRequest) => {
  if ('page' in request) {
    const { endpointPath, html, url, input } = request.page;
    const endpoint = endpoints.find((entry) => entry.path === endpointPath)!;
    work = side === 'ours' ? () => endpoint.parse(html, url, input as never) : () => cheerioLoad(html);
    parentPort!.postMessage(0);
  } else parentPort!.postMessage(medianTime(work, request.runs, request.warmUp));
});

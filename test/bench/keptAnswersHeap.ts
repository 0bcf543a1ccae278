import { createLogger } from '../../src/config/logger.js';
import { openAnswerFile } from '../../src/stores/answers/answerFile.js';

// Run by the bench in a child process with the service's heap bound (--max-old-space-size=160) and
// --expose-gc: opens the kept answers file at argv[2] (or nothing, for the baseline), reads `reads`
// random answers of its `entries`, and prints the heap in use after a full collection.

const [path, entries, reads] = [process.argv[2] ?? '', Number(process.argv[3] ?? 0), Number(process.argv[4] ?? 0)];
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error('run with --expose-gc');
let found = 0;
const file =
  path === ''
    ? undefined
    : openAnswerFile({ path, maxBytes: 2 ** 40, keepUntil: () => Infinity, now: Date.now, logger: createLogger('silent') });
for (let i = 0; file !== undefined && i < reads; i++) if (file.read(`answer-${Math.floor(Math.random() * entries)}`) !== undefined) found++;
collect();
console.log(JSON.stringify({ heapUsed: process.memoryUsage().heapUsed, found, kept: file?.size().entries ?? 0 }));
file?.close();

// `npm run bench`: every goal as a ratio (or difference) of two figures measured in this run, in one
// table. Each section is a module of sections/ taking the report; add one with one line below.
// `npm run bench -- hit parse` runs only the sections named (a shorter run while working on one of them).
import { BenchReport } from './report.js';
import { badPagesSection } from './sections/badPages.js';
import { crawlSection } from './sections/crawl.js';
import { crawledCatalog, stopCrawledCatalog } from './sections/crawledCatalog.js';
import { feedSection } from './sections/feeds.js';
import { hitSection } from './sections/hit.js';
import { lastGoodSection } from './sections/lastGood.js';
import { memorySection } from './sections/memory.js';
import { middlewareCostSection } from './sections/middlewareCost.js';
import { missSection } from './sections/miss.js';
import { parseSection } from './sections/parse.js';
import { parseQueueSection } from './sections/parseQueue.js';
import { redisFrozenSection } from './sections/redisFrozen.js';
import { refusedFloodSection } from './sections/refusedFlood.js';
import { reportConfirmationSection } from './sections/reportConfirmation.js';
import { singleFlightSection } from './sections/singleFlight.js';
import { staleWhileRevalidateSection } from './sections/staleWhileRevalidate.js';
import { statusFloodSection } from './sections/statusFlood.js';
import { titleSearchSection } from './sections/titleSearch.js';

const SECTIONS: Record<string, (report: BenchReport) => Promise<void>> = {
  hit: hitSection,
  costs: middlewareCostSection,
  'status-flood': statusFloodSection,
  feeds: feedSection,
  parse: parseSection,
  'parse-queue': parseQueueSection,
  miss: missSection,
  'single-flight': singleFlightSection,
  swr: staleWhileRevalidateSection,
  memory: memorySection,
  'bad-pages': badPagesSection,
  reports: reportConfirmationSection,
  'last-good': lastGoodSection,
  crawl: crawlSection,
  'title-search': titleSearchSection,
  'redis-frozen': redisFrozenSection,
  'refused-flood': refusedFloodSection,
};

/** The sections that read the crawled catalog (crawledCatalog.ts). */
const CRAWLED_CATALOG_READERS = ['crawl', 'title-search'];

const names = process.argv.slice(2);
const unknown = names.filter((name) => !Object.hasOwn(SECTIONS, name));
if (unknown.length > 0) {
  console.error(
    `unknown bench section ${unknown.map((name) => `"${name}"`).join(', ')}; the sections are: ${Object.keys(SECTIONS).join(', ')}`,
  );
  process.exit(2);
}
const chosen = (name: string) => names.length === 0 || names.includes(name);
const report = new BenchReport();
for (const [name, section] of Object.entries(SECTIONS)) {
  if (!chosen(name)) continue;
  if (name === 'memory' && CRAWLED_CATALOG_READERS.some(chosen)) {
    // The crawled catalog's first pass runs beside the memory section: none of the memory rows, nor
    // any row the pass serves (requests and heap per series), reads a time, and a pass asks for one
    // page after another, so it takes part of the machine, not all of it. The section ends with the
    // pass, so that no section after it measures beside the crawl. A failed pass is the crawl
    // section's failure, which awaits the same pass.
    const pass = crawledCatalog('the memory section').then(
      () => undefined,
      () => undefined,
    );
    await report.timed(name, async (sectionReport) => {
      await section(sectionReport);
      await pass;
    });
  } else await report.timed(name, section);
}
await stopCrawledCatalog();
report.print();
// The parse section's worker threads would keep the process alive.
process.exit(report.allMet ? 0 : 1);

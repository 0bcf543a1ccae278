import { constants, gzipSync } from 'node:zlib';
import type { PageContext } from './pages/context.js';
import type { SiteAnswer } from './site.js';

/**
 * A page's bytes, encoded once, and their gzip once a client asks for it: a page served again (by the
 * crawler's next pass, a test's second look, another client) costs neither rendering nor compressing.
 */
export class EncodedBody {
  readonly utf8: Buffer;
  #gzipped: Buffer | null = null;

  constructor(text: string) {
    this.utf8 = Buffer.from(text, 'utf8');
  }

  get gzipped(): Buffer {
    // The fastest level: a client decodes the same bytes whatever the level, and the benchmarks'
    // simulator compresses a page for every distinct miss on the cores the service runs on.
    this.#gzipped ??= gzipSync(this.utf8, { level: constants.Z_BEST_SPEED });
    return this.#gzipped;
  }
}

/** What WordPress answered for a path, with its page already encoded. */
export interface RenderedPage {
  readonly answer: SiteAnswer;
  /** The page's HTML; empty for a redirect. */
  readonly body: EncodedBody;
}

/** Paths come from requests (a flood of junk paths among them), so the pages kept are bounded. */
const MOST_PAGES = 256;

/**
 * The pages one simulated site rendered, kept while what they were rendered from stays the same: the
 * page context (origin and profile; a moved series path is a new context) and the catalog's version
 * (every added, edited or removed series, every new episode). A page depends on nothing else of the
 * request than its path and query; faults and the wall act on what is served, after this.
 */
export class RenderedPages {
  #context: PageContext | null = null;
  #catalogVersion = -1;
  readonly #pages = new Map<string, RenderedPage>();

  page(ctx: PageContext, catalogVersion: number, pathWithQuery: string, render: () => SiteAnswer): RenderedPage {
    if (ctx !== this.#context || catalogVersion !== this.#catalogVersion) {
      this.#pages.clear();
      this.#context = ctx;
      this.#catalogVersion = catalogVersion;
    }
    let page = this.#pages.get(pathWithQuery);
    if (page === undefined) {
      const answer = render();
      page = { answer, body: new EncodedBody(answer.status === 301 ? '' : answer.html) };
      if (this.#pages.size >= MOST_PAGES) this.#pages.clear();
      this.#pages.set(pathWithQuery, page);
    }
    return page;
  }
}

import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../config/logger.js';
import type { CatalogEntry, RemovedSeries } from '../../contract/catalogExport.js';
import { CrawlProgress, NO_PROGRESS, type CatalogSnapshot, type CatalogStore } from '../../crawler/catalogStore.js';
import { writeFileAtomically } from '../../files/atomicFile.js';

// The local catalog in DATA_DIR/catalog: an append-only log of entries (one JSON line each, the
// newest line of a slug wins; a removal is a `{"removed":…}` line) and the crawl's progress in a
// file of its own. The heap keeps only where each live line starts and how long it is; a
// snapshot reads the log once and hands out slices of it, so entries never become objects.
// The log is rewritten with the live lines only once it holds more dead bytes than live ones.

const LOG_FILE = 'entries.jsonl';
const PROGRESS_FILE = 'progress.json';
/** Below this size a log is never rewritten: the dead lines cost less than the rewrite. */
const COMPACT_MIN_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

interface Line {
  offset: number;
  length: number;
}

export function createFileCatalogStore(dataDir: string, logger: Logger): CatalogStore {
  const dir = join(dataDir, 'catalog');
  const logPath = join(dir, LOG_FILE);
  const progressPath = join(dir, PROGRESS_FILE);
  const live = new Map<string, Line>();
  const removed = new Map<string, RemovedSeries>();
  let size = 0;
  let liveBytes = 0;
  let revision = 1;
  let progress: CrawlProgress = NO_PROGRESS;
  // Writes go one at a time, so that every line's offset is the file's size when it was written.
  const loaded = load();
  let writes: Promise<unknown> = loaded;

  function track(bytes: Buffer, offset: number, length: number): void {
    let record: { slug?: unknown; removed?: RemovedSeries };
    try {
      record = JSON.parse(bytes.toString('utf8', offset, offset + length)) as typeof record;
    } catch {
      logger.warn({ file: logPath, offset }, 'unreadable catalog line skipped');
      return;
    }
    if (record.removed !== undefined) {
      forget(record.removed.slug);
      removed.set(record.removed.slug, record.removed);
    } else if (typeof record.slug === 'string') {
      forget(record.slug);
      removed.delete(record.slug);
      live.set(record.slug, { offset, length });
      liveBytes += length + 1;
    }
  }

  function forget(slug: string): void {
    const line = live.get(slug);
    if (line === undefined) return;
    liveBytes -= line.length + 1;
    live.delete(slug);
  }

  /** Reads the log and the progress once, at start; every operation waits for it. */
  async function load(): Promise<void> {
    await mkdir(dir, { recursive: true });
    const existing = await readFile(logPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return Buffer.alloc(0);
      throw error;
    });
    let start = 0;
    for (let end = existing.indexOf(NEWLINE); end !== -1; end = existing.indexOf(NEWLINE, start)) {
      if (end > start) track(existing, start, end - start);
      start = end + 1;
    }
    // A line torn by a crash mid-write is dropped: the next append starts after the last whole line.
    size = start;
    if (size < existing.length) {
      const file = await open(logPath, 'r+');
      await file.truncate(size).finally(() => file.close());
    }
    progress = await readFile(progressPath, 'utf8').then(
      (text) => {
        const parsed = CrawlProgress.safeParse(parseOrUndefined(text));
        if (parsed.success) return parsed.data;
        logger.warn({ file: progressPath }, 'unreadable crawl progress: the crawl starts afresh');
        return NO_PROGRESS;
      },
      () => NO_PROGRESS,
    );
  }

  function serialized<T>(work: () => Promise<T>): Promise<T> {
    const result = writes.then(work);
    writes = result.catch(() => undefined);
    return result;
  }

  async function append(line: string, onWritten: (offset: number, length: number) => void): Promise<void> {
    const bytes = Buffer.from(`${line}\n`);
    const file = await open(logPath, 'a');
    try {
      await file.write(bytes);
    } finally {
      await file.close();
    }
    onWritten(size, bytes.length - 1);
    size += bytes.length;
    revision++;
    if (size >= COMPACT_MIN_BYTES && size > 2 * liveBytes) await compact();
  }

  /** Rewrites the log with the live lines and the removals only, atomically. */
  async function compact(): Promise<void> {
    const bytes = await readFile(logPath);
    const parts: Buffer[] = [];
    let offset = 0;
    const moved = new Map<string, Line>();
    for (const [slug, line] of live) {
      parts.push(bytes.subarray(line.offset, line.offset + line.length + 1));
      moved.set(slug, { offset, length: line.length });
      offset += line.length + 1;
    }
    for (const entry of removed.values()) {
      const text = Buffer.from(`${JSON.stringify({ removed: entry })}\n`);
      parts.push(text);
      offset += text.length;
    }
    await writeFileAtomically(logPath, Buffer.concat(parts));
    live.clear();
    for (const [slug, line] of moved) live.set(slug, line);
    size = offset;
  }

  return {
    snapshot: () =>
      serialized(async () => {
        const bytes = size === 0 ? Buffer.alloc(0) : await readFile(logPath);
        const entries = new Map<string, Buffer>();
        for (const [slug, line] of live) entries.set(slug, bytes.subarray(line.offset, line.offset + line.length));
        return { revision, entries, removed: [...removed.values()], progress } satisfies CatalogSnapshot;
      }),
    revision: async () => {
      await loaded;
      return revision;
    },
    put: (entry: CatalogEntry) =>
      serialized(() =>
        append(JSON.stringify(entry), (offset, length) => {
          forget(entry.slug);
          removed.delete(entry.slug);
          live.set(entry.slug, { offset, length });
          liveBytes += length + 1;
        }),
      ),
    remove: (entry: RemovedSeries) =>
      serialized(() =>
        append(JSON.stringify({ removed: entry }), () => {
          forget(entry.slug);
          removed.set(entry.slug, entry);
        }),
      ),
    saveProgress: (next) =>
      serialized(async () => {
        progress = next;
        await writeFileAtomically(progressPath, JSON.stringify(next));
      }),
    close: () => serialized(async () => undefined),
  };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

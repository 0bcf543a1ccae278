import { createReadStream } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { z } from 'zod';
import { writeFileAtomically } from './atomicFile.js';

// The one append-only JSON-lines file of the service (reports, status history): one JSON object per
// line, appended durably, read from any byte offset, its torn tail repaired, replaced atomically.

export interface JsonLinesFile<Record> {
  /**
   * Resolves once the records are on disk (written and fsynced). Appends waiting at the same moment
   * go out in one write and one fsync (group commit), so lines never interleave and concurrent
   * callers share the cost of the sync.
   */
  append: (records: readonly Record[]) => Promise<void>;
  /** The records from byte `offset` to the end, oldest first, and the offset to read from next time. */
  readFrom(offset: number): Promise<{ records: Record[]; end: number }>;
  /** Each record in order, streamed line by line, so a file larger than memory can be read; an error thrown by `onRecord` stops it. */
  forEach: (onRecord: (record: Record) => void | Promise<void>) => Promise<void>;
  /** Replaces the whole file with `records`, atomically. */
  replace(records: readonly Record[]): Promise<void>;
}

export interface JsonLinesFileOptions {
  /**
   * Told of each line that is not JSON or not of the schema's shape (torn by a crash mid-write, or
   * foreign), with its 1-based number counted from where the read started; the line is skipped.
   */
  onUnreadable(lineNumber: number): void;
  /** The file's permissions when it is created. */
  mode?: number;
}

interface PendingAppend {
  text: string;
  resolve(): void;
  reject(error: unknown): void;
}

const NEWLINE = 0x0a;
const toLines = (records: readonly unknown[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('');

export function createJsonLinesFile<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  options: JsonLinesFileOptions,
): JsonLinesFile<z.output<Schema>> {
  type Record = z.output<Schema>;
  const mode = options.mode ?? 0o644;
  const queue: PendingAppend[] = [];
  let draining = false;
  // Whether the file is known to end with a newline; unknown at start, after a failed write and after a replace.
  let tailChecked = false;

  async function writeBatch(text: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const file = await open(path, 'a+', mode);
    let created = false;
    try {
      let prefix = '';
      if (!tailChecked) {
        const { size } = await file.stat();
        created = size === 0;
        // A line torn by a crash gets its newline here, so the next record starts a line of its own.
        if (size > 0) {
          const last = Buffer.alloc(1);
          await file.read(last, 0, 1, size - 1);
          if (last[0] !== NEWLINE) prefix = '\n';
        }
      }
      await file.appendFile(prefix + text, 'utf8');
      await file.datasync();
      tailChecked = true;
    } catch (error) {
      tailChecked = false;
      throw error;
    } finally {
      await file.close();
    }
    // A new file is durable only once its directory entry is.
    if (created) await syncDirectory(dirname(path));
  }

  async function drain(): Promise<void> {
    draining = true;
    while (queue.length > 0) {
      const batch = queue.splice(0);
      try {
        await writeBatch(batch.map((entry) => entry.text).join(''));
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    draining = false;
  }

  function append(records: readonly Record[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      queue.push({ text: toLines(records), resolve, reject });
      if (!draining) void drain();
    });
  }

  async function readFrom(offset: number) {
    let file;
    try {
      file = await open(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], end: offset };
      throw error;
    }
    let bytes: Buffer;
    let end: number;
    try {
      end = (await file.stat()).size;
      bytes = Buffer.alloc(Math.max(0, end - offset));
      await file.read(bytes, 0, bytes.length, offset);
    } finally {
      await file.close();
    }
    const records: Record[] = [];
    bytes
      .toString('utf8')
      .split('\n')
      .forEach((line, index) => {
        if (line === '') return;
        const record = parseJsonLine(line, schema);
        if (record === undefined) options.onUnreadable(index + 1);
        else records.push(record);
      });
    return { records, end };
  }

  async function forEach(onRecord: (record: Record) => void | Promise<void>): Promise<void> {
    try {
      await stat(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const input = createReadStream(path, { encoding: 'utf8' });
    let lineNumber = 0;
    try {
      for await (const line of createInterface({ input, crlfDelay: Infinity })) {
        lineNumber++;
        if (line === '') continue;
        const record = parseJsonLine(line, schema);
        if (record === undefined) options.onUnreadable(lineNumber);
        else await onRecord(record);
      }
    } finally {
      // An `onRecord` that throws stops the read; the file is closed either way.
      input.destroy();
    }
  }

  async function replace(records: readonly Record[]): Promise<void> {
    await writeFileAtomically(path, toLines(records), { mode });
    tailChecked = true;
  }

  return { append, readFrom, forEach, replace };
}

/** One line as a record of `schema`'s shape; undefined when it is not JSON or not of that shape. */
function parseJsonLine<Schema extends z.ZodType>(line: string, schema: Schema): z.output<Schema> | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function syncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

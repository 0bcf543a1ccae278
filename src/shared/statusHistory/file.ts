import { appendFile, mkdir, open, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseJsonLines } from '../../jsonLines.js';
import { recordTime, StatusRecord } from '../../status/records.js';
import type { StatusHistoryStore, StatusStoreLog } from './store.js';

const toLines = (records: readonly StatusRecord[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('');

/**
 * Append-only JSON lines in one file; the cursor is a byte offset, so a reader takes only what was
 * appended since. A crash can tear the last line: readers skip it with a warning, and the next
 * append starts a line of its own after it. Pruning rewrites the file (a temporary file renamed
 * over it, so a crash leaves the old or the new file, never half of one).
 */
export function createFileStatusStore(filePath: string, logger: StatusStoreLog): StatusHistoryStore {
  // Whether the file ends with a newline: known after a read to its end or an append.
  let endsWithNewline: boolean | undefined;

  async function lastByteIsNewline(): Promise<boolean> {
    const { bytes } = await readFrom(-1);
    return bytes.length === 0 || bytes[0] === 0x0a;
  }

  /** The file's bytes from `offset` (from its last byte for -1) to its end; none when it does not exist. */
  async function readFrom(offset: number): Promise<{ bytes: Buffer; end: number }> {
    let file;
    try {
      file = await open(filePath, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { bytes: Buffer.alloc(0), end: Math.max(0, offset) };
      throw error;
    }
    try {
      const { size } = await file.stat();
      const start = offset < 0 ? Math.max(0, size - 1) : offset;
      const bytes = Buffer.alloc(Math.max(0, size - start));
      await file.read(bytes, 0, bytes.length, start);
      return { bytes, end: size };
    } finally {
      await file.close();
    }
  }

  async function read(cursor: string | null) {
    const { bytes, end } = await readFrom(cursor === null ? 0 : Number(cursor));
    if (bytes.length > 0) endsWithNewline = bytes.at(-1) === 0x0a;
    const records = parseJsonLines(bytes.toString('utf8'), StatusRecord, () =>
      logger.warn({ file: filePath }, 'skipping an unreadable status history line (torn by a crash?)'),
    );
    return { records, cursor: String(end) };
  }

  async function append(records: readonly StatusRecord[]) {
    if (records.length === 0) return;
    await mkdir(dirname(filePath), { recursive: true });
    endsWithNewline ??= await lastByteIsNewline();
    // A line torn by a crash gets its newline here, so the new records start lines of their own.
    const prefix = endsWithNewline ? '' : '\n';
    await appendFile(filePath, prefix + toLines(records), 'utf8');
    endsWithNewline = true;
  }

  async function prune(keepFrom: number) {
    const { records } = await read(null);
    const temporary = `${filePath}.tmp`;
    await writeFile(temporary, toLines(records.filter((record) => recordTime(record) >= keepFrom)), 'utf8');
    await rename(temporary, filePath);
    endsWithNewline = true;
  }

  return { read, append, prune };
}

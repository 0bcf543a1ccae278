import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * Replaces `path` with `data` so that a crash leaves the old file or the new one, never half of
 * one: write-file-atomic writes a temporary file beside it, fsyncs it and renames it over, and
 * queues concurrent writes of one path in this process.
 */
export async function writeFileAtomically(path: string, data: string | Buffer, options: { mode?: number } = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, data, { fsync: true, ...(options.mode === undefined ? {} : { mode: options.mode }) });
}

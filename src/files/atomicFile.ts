import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/** Each path's latest write in this process, while it is under way. */
const writing = new Map<string, Promise<void>>();

/**
 * Replaces `path` with `data` so that a crash leaves the old file or the new one, never half of
 * one: write-file-atomic writes a temporary file beside it, fsyncs it and renames it over. Writes of
 * one path in this process land in the order they were asked for: each starts once the one before
 * it has ended (write-file-atomic's own queue cannot keep that order, because the folder is made
 * first, and two mkdir calls may end in either order).
 */
export function writeFileAtomically(path: string, data: string | Buffer, options: { mode?: number } = {}): Promise<void> {
  const write = (writing.get(path) ?? Promise.resolve())
    .catch(() => undefined)
    .then(async () => {
      await mkdir(dirname(path), { recursive: true });
      await writeFileAtomic(path, data, { fsync: true, ...(options.mode === undefined ? {} : { mode: options.mode }) });
    });
  writing.set(path, write);
  const forget = () => {
    if (writing.get(path) === write) writing.delete(path);
  };
  write.then(forget, forget);
  return write;
}

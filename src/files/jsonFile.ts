import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { moveAside, type DamageLog } from './moveAside.js';

/**
 * A small JSON file of DATA_DIR that a store reads whole (the adopted origin, the learned paths):
 * its value, or null when there is none yet. A file that is not JSON of the schema's shape (cut by
 * a full disk, damaged, or written by something else) is moved aside, logged once, and read as none,
 * so that the store starts afresh and the next write puts a good file in its place.
 */
export function readJsonFile<Schema extends z.ZodType>(path: string, schema: Schema, log: DamageLog): z.output<Schema> | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let cause: unknown;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    cause = new Error(`not of the expected shape: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  } catch (error) {
    cause = error;
  }
  moveAside(path, cause, log);
  return null;
}

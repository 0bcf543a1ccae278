import type { z } from 'zod';

/**
 * The records of a JSON-lines text (an append-only file), oldest first. A line that is not JSON or
 * not of `schema`'s shape (torn by a crash mid-write, or foreign) is skipped and passed to
 * `onUnreadable` with its 1-based number, so each store can say so in its own words.
 */
export function parseJsonLines<Schema extends z.ZodType>(
  text: string,
  schema: Schema,
  onUnreadable: (lineNumber: number) => void,
): z.output<Schema>[] {
  const records: z.output<Schema>[] = [];
  text.split('\n').forEach((line, index) => {
    if (line === '') return;
    const record = parseLine(line, schema);
    if (record === undefined) onUnreadable(index + 1);
    else records.push(record);
  });
  return records;
}

function parseLine<Schema extends z.ZodType>(line: string, schema: Schema): z.output<Schema> | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

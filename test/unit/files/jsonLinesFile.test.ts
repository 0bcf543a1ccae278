import { appendFileSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeFileAtomically } from '../../../src/files/atomicFile.js';
import { createJsonLinesFile } from '../../../src/files/jsonLinesFile.js';

// The one JSON-lines file and the one atomic writer; the reports and status history tests
// exercise them through their stores as well.

const Entry = z.object({ n: z.number() });
const tempDir = () => mkdtempSync(join(tmpdir(), 'json-lines-'));

function fileIn(dir: string, mode?: number) {
  const unreadable: number[] = [];
  const path = join(dir, 'nested', 'entries.jsonl');
  const file = createJsonLinesFile(path, Entry, { onUnreadable: (line) => unreadable.push(line), ...(mode === undefined ? {} : { mode }) });
  return { path, file, unreadable };
}

describe('the JSON-lines file', () => {
  it('streams every record in order with forEach, skipping a torn line by its number', async () => {
    const dir = tempDir();
    const { path, file: before } = fileIn(dir);
    await before.append([{ n: 1 }, { n: 2 }]);
    // A crash mid-write, then a restart: the new process does not know the file's tail yet.
    appendFileSync(path, '{"n":3');
    const { file, unreadable } = fileIn(dir);
    await file.append([{ n: 4 }]);
    const seen: number[] = [];
    await file.forEach((entry) => {
      seen.push(entry.n);
    });
    expect(seen).toEqual([1, 2, 4]);
    expect(unreadable).toEqual([3]);
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3\n{"n":4}\n');
  });

  it('reads from a byte offset, and forEach of a missing file sees nothing', async () => {
    const { file } = fileIn(tempDir());
    let calls = 0;
    await file.forEach(() => {
      calls++;
    });
    expect(calls).toBe(0);
    expect(await file.readFrom(0)).toEqual({ records: [], end: 0 });
    await file.append([{ n: 1 }]);
    const first = await file.readFrom(0);
    await file.append([{ n: 2 }, { n: 3 }]);
    expect(await file.readFrom(first.end)).toEqual({ records: [{ n: 2 }, { n: 3 }], end: first.end + 16 });
  });

  it('creates the file with the mode asked for, and a replace keeps it and leaves no temporary file', async () => {
    const dir = tempDir();
    const { path, file } = fileIn(dir, 0o600);
    await file.append([{ n: 1 }]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await file.replace([{ n: 7 }, { n: 8 }]);
    await file.append([{ n: 9 }]);
    expect(readFileSync(path, 'utf8')).toBe('{"n":7}\n{"n":8}\n{"n":9}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'nested'))).toEqual(['entries.jsonl']);
  });
});

describe('the atomic file writer', () => {
  it('creates the folder; of concurrent writes one stands whole; a later write replaces it', async () => {
    const path = join(tempDir(), 'a', 'b', 'state.json');
    const pad = 'x'.repeat(100_000);
    await Promise.all(Array.from({ length: 20 }, (_, n) => writeFileAtomically(path, `${JSON.stringify({ n, pad })}\n`)));
    const standing = JSON.parse(readFileSync(path, 'utf8')) as { n: number; pad: string };
    expect(standing.pad).toBe(pad);
    expect(standing.n).toBeGreaterThanOrEqual(0);
    expect(standing.n).toBeLessThan(20);
    await writeFileAtomically(path, 'last\n');
    expect(readFileSync(path, 'utf8')).toBe('last\n');
    expect(readdirSync(join(path, '..'))).toEqual(['state.json']);
  });
});

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/config/logger.js';
import { createFileOrigin } from '../../../src/stores/origin/file.js';
import { createFileSitePaths } from '../../../src/stores/sitePaths/file.js';

// The small JSON files of DATA_DIR (the adopted origin, the learned paths): a damaged one is moved
// aside with one log line and read as none, and the next write puts a good file in its place.

function recordingLogger() {
  const lines: Array<{ file?: string; msg?: string }> = [];
  const logger = { error: (fields: { file?: string }, message: string) => void lines.push({ file: fields.file, msg: message }) };
  return { logger: logger as unknown as Logger, lines };
}

describe.each([
  ['upstream-origin.json', '{"origin": "https://cut.exa'],
  ['upstream-origin.json', '{"chosen": 42}'],
  ['upstream-paths.json', '\u0000\u0000\u0000'],
  ['upstream-paths.json', '{"https://site.example": {"origin": 7}}'],
])('%s holding %j', (fileName, damaged) => {
  it('is moved aside, logged once with its name, read as none, and written afresh', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'small-json-'));
    const path = join(dir, fileName);
    writeFileSync(path, damaged);
    const { logger, lines } = recordingLogger();

    if (fileName === 'upstream-origin.json') {
      const store = createFileOrigin(dir, logger);
      expect(store.read()).toBeNull();
      expect(store.read()).toBeNull();
    } else {
      const store = createFileSitePaths(dir, logger);
      expect(await store.read('https://site.example')).toBeNull();
      await store.write({ origin: 'https://site.example', series: null, list: null });
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
        'https://site.example': { origin: 'https://site.example', series: null, list: null },
      });
    }

    expect(lines).toEqual([{ file: path, msg: 'damaged file moved aside; starting afresh' }]);
    const aside = readdirSync(dir).filter((name) => name.startsWith(`${fileName}.damaged-`));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(damaged);
  });
});

it('a missing file is none, with nothing moved or logged', () => {
  const dir = mkdtempSync(join(tmpdir(), 'small-json-'));
  const { logger, lines } = recordingLogger();
  expect(createFileOrigin(dir, logger).read()).toBeNull();
  expect(lines).toEqual([]);
  expect(readdirSync(dir)).toEqual([]);
});

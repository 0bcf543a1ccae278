import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomically } from '../../../src/files/atomicFile.js';

describe('writeFileAtomically', () => {
  it('leaves the last of two writes asked at once, each time, in a folder it makes', async () => {
    const left: string[] = [];
    // Before writes were ordered, the earlier one landed last in about 1 of 150 such pairs.
    for (let round = 0; round < 300; round++) {
      const path = join(mkdtempSync(join(tmpdir(), 'atomic-')), 'made', 'paths.json');
      await Promise.all([writeFileAtomically(path, 'first'), writeFileAtomically(path, 'second')]);
      left.push(readFileSync(path, 'utf8'));
    }
    expect(left.filter((text) => text !== 'second')).toEqual([]);
  });
});

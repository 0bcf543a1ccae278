import { parseCircular } from 'dpdm';
import { describe, expect, it } from 'vitest';
import { importTree } from '../helpers/importTree.js';

// No two files of src/ may import each other, even for types only: a cycle makes a module's
// meaning depend on load order, and says two modules are one job split in two.

/** The cycles among the files `glob` matches and what they import, `import type` edges included. */
async function cyclesIn(glob: string): Promise<string[][]> {
  return parseCircular(await importTree(glob));
}

describe('import cycles', () => {
  it('finds none in src', async () => {
    expect(await cyclesIn('src/**/*.ts')).toEqual([]);
  });

  it('finds a cycle of type-only imports (the check can fail)', async () => {
    const cycles = await cyclesIn('test/fixtures/importCycle/*.ts');
    // Where a cycle starts depends on the order the files are found in.
    expect(cycles.map((cycle) => [...cycle].sort())).toEqual([
      ['test/fixtures/importCycle/first.ts', 'test/fixtures/importCycle/second.ts'],
    ]);
  });
});

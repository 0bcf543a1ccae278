import { fileURLToPath } from 'node:url';
import { parseCircular, parseDependencyTree } from 'dpdm';
import { describe, expect, it } from 'vitest';

// No two files of src/ may import each other, even for types only: a cycle makes a module's
// meaning depend on load order, and says two modules are one job split in two.

const root = fileURLToPath(new URL('../..', import.meta.url));

async function cyclesIn(glob: string): Promise<string[][]> {
  // transform: false keeps `import type` edges, which a cycle counts as well.
  const tree = await parseDependencyTree(glob, { context: root, cwd: root, transform: false, tsconfig: `${root}/tsconfig.json` });
  return parseCircular(tree);
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

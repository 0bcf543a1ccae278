import { describe, expect, it } from 'vitest';
import { importTree } from '../helpers/importTree.js';

// Folders under src/ import one way: an interface lives beside the code that uses it, so the
// folder that implements it depends on the user, never the other way too. A pair of folders that
// import each other both ways (even without a file cycle) says one job is split across both.

/** Each file's top-level folder under `base` (a file directly in `base` is its own). */
const folderOf = (base: string, file: string) => file.slice(base.length + 1).split('/')[0]!;

/** Every import between two top-level folders of `base`, as "from>to" with the files that make it. */
async function folderImports(base: string): Promise<Map<string, string[]>> {
  // `import type` edges included: a type import ties two folders as much as any.
  const tree = await importTree(`${base}/**/*.ts`);
  const edges = new Map<string, string[]>();
  for (const [file, dependencies] of Object.entries(tree)) {
    for (const dependency of dependencies ?? []) {
      if (dependency.id === null || !dependency.id.startsWith(`${base}/`)) continue;
      const from = folderOf(base, file);
      const to = folderOf(base, dependency.id);
      if (from === to) continue;
      const edge = `${from}>${to}`;
      edges.set(edge, [...(edges.get(edge) ?? []), `${file} -> ${dependency.id}`]);
    }
  }
  return edges;
}

/** The pairs of folders that import each other both ways, as "a<->b" (a before b). */
function bothWays(edges: Map<string, string[]>): string[] {
  return [...edges.keys()]
    .map((edge) => edge.split('>') as [string, string])
    .filter(([from, to]) => from < to && edges.has(`${to}>${from}`))
    .map(([from, to]) => `${from}<->${to}`)
    .sort();
}

describe('folders importing each other', () => {
  it('are at most 2 pairs in src', async () => {
    const pairs = bothWays(await folderImports('src'));
    expect(pairs.length, pairs.join(', ')).toBeLessThanOrEqual(2);
  });

  it('finds the pair two folders make with type imports alone (the check can fail)', async () => {
    expect(bothWays(await folderImports('test/fixtures/folderPairs'))).toEqual(['first<->second']);
  });

  it('leave the store implementations to the composition roots', async () => {
    const importers = [...(await folderImports('src')).entries()]
      .filter(([edge]) => edge.endsWith('>stores'))
      .map(([edge]) => edge.split('>')[0]);
    expect(importers.sort()).toEqual(['app.ts', 'reportsMain.ts']);
  });
});

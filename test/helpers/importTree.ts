import { fileURLToPath } from 'node:url';
import { parseDependencyTree, type DependencyTree } from 'dpdm';

const root = fileURLToPath(new URL('../..', import.meta.url));

const trees = new Map<string, Promise<DependencyTree>>();

/**
 * Every import of the files `glob` matches (relative to the repository) and of what they import, as
 * dpdm reads them with the repository's tsconfig. `transform: false` keeps `import type` edges, which
 * tie two files as much as any. Read once per worker and glob: the files do not change during a run,
 * and the import checks of a worker's files share the read.
 */
export function importTree(glob: string): Promise<DependencyTree> {
  let tree = trees.get(glob);
  if (tree === undefined) {
    tree = parseDependencyTree(glob, { context: root, cwd: root, transform: false, tsconfig: `${root}/tsconfig.json` });
    trees.set(glob, tree);
  }
  return tree;
}

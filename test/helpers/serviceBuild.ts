import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, version as esbuildVersion } from 'esbuild';
import { REPO_ROOT } from './commandLine.js';

// The service's programs as the tests and the bench start them in child processes: compiled to
// JavaScript once, as `npm start` runs dist/, instead of through tsx at every start. A tsx start
// loads its compiler hooks in the process and in each parse thread; the build is shared by every
// child of every worker, and made again only when a source changes.

/** Programs run in child processes, beside the service's sources they import. */
const PROGRAMS = ['test/helpers/serviceChild.ts'];
/** What the sources read beside themselves (templates, static files, package.json) and import (node_modules). */
const BESIDE_SOURCES = ['node_modules', 'views', 'public', 'package.json'];

const sourceFiles = (): string[] => [
  ...readdirSync(join(REPO_ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join('src', file))
    .sort(),
  ...PROGRAMS,
];

/** The build's folder: named after the sources it is made of, so that a changed source makes a new one. */
function buildDir(files: readonly string[]): string {
  const hash = createHash('sha256').update(`${REPO_ROOT}\0${esbuildVersion}`);
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(join(REPO_ROOT, file)));
  return join(tmpdir(), `catalog-service-build-${hash.digest('hex').slice(0, 16)}`);
}

async function makeBuild(): Promise<string> {
  const files = sourceFiles();
  const dir = buildDir(files);
  if (existsSync(dir)) return dir;
  // Made beside and renamed into place: a folder that exists is whole, whichever worker made it.
  const making = `${dir}.${randomUUID()}`;
  mkdirSync(making);
  for (const name of BESIDE_SOURCES) symlinkSync(join(REPO_ROOT, name), join(making, name));
  await build({
    entryPoints: files.map((file) => join(REPO_ROOT, file)),
    outbase: REPO_ROOT,
    outdir: making,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  });
  try {
    renameSync(making, dir);
  } catch (error) {
    // Another worker's build of the same sources got there first.
    if (!existsSync(dir)) throw error;
    rmSync(making, { recursive: true, force: true });
  }
  return dir;
}

let made: Promise<string> | undefined;

/** The built JavaScript of a source file, given by its path under the repository (e.g. 'src/main.ts'). */
export async function builtPath(source: string): Promise<string> {
  made ??= makeBuild();
  const dir = await made;
  const built = join(dir, source.replace(/\.ts$/, '.js'));
  if (!existsSync(built)) throw new Error(`${source} is not built in ${dir}`);
  return built;
}

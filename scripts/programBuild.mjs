// The project's programs compiled to JavaScript by esbuild: the service and its reports CLI, the demo,
// and the programs the tests and the bench start in child processes. A start through tsx resolves and
// loads every import through its loader hooks, in the process and again in each parse thread; the
// build is made once and run by plain Node, as `npm start` runs dist/.
//
// Each source becomes one file at its own path (not bundled): a source finds its templates, static
// files and parse task beside itself by import.meta.url. The folder is named after the sources it is
// made of, in the temporary folder, so that a changed source makes a new one and every program of a
// run (and every test worker) shares one.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, stop, version as esbuildVersion } from 'esbuild';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** What the sources read beside themselves (templates, static files, package.json) and import (node_modules). */
const BESIDE_SOURCES = ['node_modules', 'views', 'public', 'package.json'];
/** The folders whose TypeScript the programs import; their tests and the files that are no program's are left out. */
const SOURCE_FOLDERS = ['src', 'test'];
const NOT_SOURCES = [/\.test\.ts$/, /^test\/fixtures\//, /^test\/typed-client\//];

const sourceFiles = () =>
  SOURCE_FOLDERS.flatMap((folder) =>
    readdirSync(join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.replaceAll('\\', '/')}`)
      .filter((file) => file.endsWith('.ts') && !NOT_SOURCES.some((pattern) => pattern.test(file))),
  ).sort();

/** @param {readonly string[]} files */
function buildDir(files) {
  const hash = createHash('sha256').update(`${REPO_ROOT}\0${esbuildVersion}`);
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(join(REPO_ROOT, file)));
  return join(tmpdir(), `catalog-programs-${hash.digest('hex').slice(0, 16)}`);
}

async function makeBuild() {
  const files = sourceFiles();
  const dir = buildDir(files);
  if (existsSync(dir)) return dir;
  // Made beside and renamed into place: a folder that exists is whole, whichever process made it.
  const making = `${dir}.${randomUUID()}`;
  mkdirSync(making);
  for (const name of BESIDE_SOURCES) symlinkSync(join(REPO_ROOT, name), join(making, name));
  try {
    await build({
      entryPoints: files.map((file) => join(REPO_ROOT, file)),
      outbase: REPO_ROOT,
      outdir: making,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'error',
    });
  } finally {
    // esbuild's service process is not needed once the build is made.
    await stop();
  }
  try {
    renameSync(making, dir);
  } catch (error) {
    // Another process's build of the same sources got there first.
    if (!existsSync(dir)) throw error;
    rmSync(making, { recursive: true, force: true });
  }
  return dir;
}

/** @type {Promise<string> | undefined} */
let made;

/**
 * The built JavaScript of a source file, given by its path under the repository (e.g. 'src/main.ts').
 * @param {string} source
 * @returns {Promise<string>}
 */
export async function builtPath(source) {
  made ??= makeBuild();
  const dir = await made;
  const built = join(dir, source.replace(/\.ts$/, '.js'));
  if (!existsSync(built)) throw new Error(`${source} is not built in ${dir}`);
  return built;
}

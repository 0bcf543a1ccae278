// The project's programs compiled to JavaScript by esbuild: the service and its reports CLI, the demo,
// and the programs the tests and the bench start in child processes. A start through tsx resolves and
// loads every import through its loader hooks, in the process and again in each parse thread; the
// build is made once and run by plain Node, as `npm start` runs dist/.
//
// Each program is bundled with what it imports, into a file at its source's path and the chunks it
// shares with the others: a start reads a few files instead of resolving and loading some 300 modules
// one by one through Node's ESM loader. The folder is named after the sources it is made of, in the
// temporary folder, so that a changed source makes a new one and every program of a run (and every
// test worker) shares one.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, stop, version as esbuildVersion } from 'esbuild';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** What the sources read beside themselves (templates, static files, package.json) and import (node_modules). */
const BESIDE_SOURCES = ['node_modules', 'views', 'public', 'package.json'];
/** The folders whose TypeScript the programs import; their tests and the files that are no program's are left out. */
const SOURCE_FOLDERS = ['src', 'test'];
const NOT_SOURCES = [/\.test\.ts$/, /^test\/fixtures\//, /^test\/typed-client\//];
/** What a process or a thread starts with: the programs built. */
const PROGRAMS = ['src/main.ts', 'src/reportsMain.ts', 'src/catalog/parseTask.ts', 'test/demo.ts', 'test/helpers/serviceChild.ts'];
/**
 * Packages a program loads from node_modules, as they are: those that find files of their own by
 * __dirname or __filename, which a bundle does not have (piscina's and pino's worker files, Playwright's
 * driver, write-file-atomic's temporary names), and a native addon.
 */
const NOT_BUNDLED = ['better-sqlite3', 'piscina', 'pino', 'playwright-core', 'write-file-atomic'];
// The packages written for CommonJS call require(), which an ES module bundle has only if it makes one.
const BUNDLE_REQUIRE =
  "import { createRequire as createBundleRequire } from 'node:module'; const require = createBundleRequire(import.meta.url);";

const sourceFiles = () =>
  SOURCE_FOLDERS.flatMap((folder) =>
    readdirSync(join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.replaceAll('\\', '/')}`)
      .filter((file) => file.endsWith('.ts') && !NOT_SOURCES.some((pattern) => pattern.test(file))),
  ).sort();

/** The start of the name of every build of this checkout's programs. */
const BUILD_PREFIX = `catalog-programs-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 8)}-`;
/**
 * Builds of this checkout kept in the temporary folder: each edit of a source makes one (some 16 MB),
 * and a demo started before the edit may still load files from its own (a parse thread it replaces).
 */
const BUILDS_KEPT = 3;

/** @param {readonly string[]} files */
function buildDir(files) {
  // This file too: how the programs are built is part of what they are.
  const hash = createHash('sha256')
    .update(`${esbuildVersion}\0`)
    .update(readFileSync(fileURLToPath(import.meta.url)));
  for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(join(REPO_ROOT, file)));
  return join(tmpdir(), `${BUILD_PREFIX}${hash.digest('hex').slice(0, 16)}`);
}

/** Removes this checkout's builds but the BUILDS_KEPT newest (half-made ones, named with a dot, are left alone). */
function removeOldBuilds() {
  const builds = readdirSync(tmpdir())
    .filter((name) => name.startsWith(BUILD_PREFIX) && !name.includes('.'))
    // Another process may remove one meanwhile: it has no time, and is passed over.
    .map((name) => ({ path: join(tmpdir(), name), madeAt: statSync(join(tmpdir(), name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.madeAt - a.madeAt);
  for (const { path } of builds.slice(BUILDS_KEPT)) rmSync(path, { recursive: true, force: true });
}

/**
 * Gives each source in a bundle its own import.meta.url: the URL its file would have in `dir`, from
 * which it finds what it reads by path (templates, static files, package.json, the parse task).
 * @param {string} dir
 * @returns {import('esbuild').Plugin}
 */
const ownUrls = (dir) => ({
  name: 'own-urls',
  setup(bundle) {
    bundle.onLoad({ filter: /\.ts$/ }, (args) => {
      const contents = readFileSync(args.path, 'utf8');
      if (!contents.includes('import.meta.url')) return undefined;
      const own = pathToFileURL(join(dir, relative(REPO_ROOT, args.path).replace(/\.ts$/, '.js'))).href;
      return { contents: contents.replaceAll('import.meta.url', JSON.stringify(own)), loader: 'ts' };
    });
  },
});

/** @param {string} dir @param {readonly string[]} programs */
async function makeBuild(dir, programs) {
  if (existsSync(dir)) return dir;
  // Made beside and renamed into place: a folder that exists is whole, whichever process made it.
  const making = `${dir}.${randomUUID()}`;
  mkdirSync(making);
  for (const name of BESIDE_SOURCES) symlinkSync(join(REPO_ROOT, name), join(making, name));
  try {
    await build({
      entryPoints: programs.map((program) => join(REPO_ROOT, program)),
      outbase: REPO_ROOT,
      outdir: making,
      bundle: true,
      // What the programs share (the app, the parsers, the simulator) is written once, in chunks they
      // import, rather than again into each program's file.
      splitting: true,
      external: NOT_BUNDLED,
      banner: { js: BUNDLE_REQUIRE },
      plugins: [ownUrls(dir)],
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
  removeOldBuilds();
  return dir;
}

/** @type {Promise<string> | undefined} */
let programsMade;

/** @param {string} dir @param {string} source */
const programIn = (dir, source) => join(dir, source.replace(/\.ts$/, '.js'));

/**
 * The built JavaScript of a program (PROGRAMS), given by its source's path under the repository (e.g. 'src/main.ts').
 * @param {string} source
 * @returns {Promise<string>}
 */
export async function builtPath(source) {
  // Named after the sources once, and made once, per process.
  const dir = await (programsMade ??= makeBuild(buildDir(sourceFiles()), PROGRAMS));
  const built = programIn(dir, source);
  if (!existsSync(built)) throw new Error(`${source} is not built in ${dir}`);
  return built;
}

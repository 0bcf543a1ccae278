// `npm run demo` and `npm run reports`: runs the program whose source is named first (e.g.
// test/demo.ts) from its JavaScript build (scripts/programBuild.mjs), in this process, with the
// arguments that follow: the program reads them, its signals and its exit code as if started itself.
import { pathToFileURL } from 'node:url';
import { builtPath } from './programBuild.mjs';

const [source, ...args] = process.argv.slice(2);
if (source === undefined) {
  console.error('usage: node scripts/runProgram.mjs <source.ts> [arguments...]');
  process.exit(2);
}
const built = await builtPath(source);
process.argv.splice(1, process.argv.length - 1, built, ...args);
await import(pathToFileURL(built).href);

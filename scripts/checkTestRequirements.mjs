// `npm test`'s pretest: what the suite needs beyond npm. The browser and challenge tests drive Debian's
// Chromium (CHROMIUM_PATH), the Redis tests start redis-server, the code-sample tests run curl and python3. As root with apt-get (CI, a fresh
// container) the missing packages are installed; otherwise one line names the fix. Plain Node, no
// dependencies, so it also runs before `npm ci`.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const DEFAULT_CHROMIUM = '/usr/bin/chromium';

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const onPath = (command) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && executable(join(dir, command)));

function fail(line) {
  console.error(line);
  process.exit(1);
}

if (!executable(new URL('../node_modules/.bin/vitest', import.meta.url).pathname))
  fail('npm test: the dependencies are missing; run "npm ci" first.');

const chromiumPath = process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
if (chromiumPath !== DEFAULT_CHROMIUM && !executable(chromiumPath))
  fail(
    `npm test: CHROMIUM_PATH=${chromiumPath} is not an executable; point it at Chromium or unset it to use Debian's ${DEFAULT_CHROMIUM}.`,
  );

// The code samples of /docs are run as pasted: curl, and python3 with requests.
const pythonHasRequests = () => spawnSync('python3', ['-c', 'import requests'], { stdio: 'ignore' }).status === 0;
const missing = () =>
  [
    !executable(chromiumPath) && 'chromium',
    !onPath('redis-server') && 'redis-server',
    !onPath('curl') && 'curl',
    !pythonHasRequests() && 'python3-requests',
  ].filter(Boolean);
const packages = missing();
if (packages.length > 0) {
  const install = `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  if (process.getuid?.() !== 0 || !onPath('apt-get'))
    fail(`npm test needs ${packages.join(' and ')}: run "sudo apt-get update && sudo ${install}", then npm test again.`);
  console.error(`npm test needs ${packages.join(' and ')}; installing with apt-get.`);
  const run = spawnSync('sh', ['-c', `apt-get update && ${install}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (run.status !== 0 || missing().length > 0)
    fail(`npm test: "apt-get update && ${install}" failed (see above); install ${missing().join(' and ')} and run npm test again.`);
}

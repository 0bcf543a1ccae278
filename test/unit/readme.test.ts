import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { writtenDefaults, type Config } from '../../src/config/schema.js';
import { importTree } from '../helpers/importTree.js';
import { PACKAGE_SCRIPTS, README, readmeCommands } from '../helpers/readme.js';

// What the README says about the code, checked against the code; test/integration/readmeCommands.test.ts
// runs its commands.

const root = fileURLToPath(new URL('../..', import.meta.url));
const defaults: Partial<Config> = loadConfig({});
/** Each default as the environment gives it, as the README writes it: the text, or `unset`. */
const written: Record<string, string> = Object.fromEntries(
  Object.entries(writtenDefaults()).map(([name, value]) => [name, value === '' ? 'unset' : value]),
);

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, min: 60_000, h: 3_600_000, day: 86_400_000, days: 86_400_000 };

describe('the README', () => {
  it('names only npm scripts that package.json has', () => {
    const named = new Set([...README.matchAll(/\bnpm (?:run ([\w:-]+)|(start|test)\b)/g)].map((match) => match[1] ?? match[2]!));
    expect([...named].filter((name) => PACKAGE_SCRIPTS[name] === undefined)).toEqual([]);
    // The quick start, the reports CLI and the test scripts are among them: the search found the commands.
    expect([...named]).toEqual(expect.arrayContaining(['start', 'test', 'demo', 'reports', 'test:unit', 'bench']));
  });

  it('names only programs of dist/ that the build makes from src/, as the image runs them', () => {
    const named = [...new Set([...README.matchAll(/\bdist\/([\w/]+)\.js\b/g)].map((match) => match[1]!))];
    // In the Docker image, reports are read with dist/reportsMain.js.
    expect(named).toEqual(['reportsMain']);
    expect(named.filter((name) => !existsSync(join(root, 'src', `${name}.ts`)))).toEqual([]);
  });

  it('names npm scripts in its commands only as npm runs them', () => {
    const npmCommands = readmeCommands().filter((command) => command.startsWith('npm '));
    const unknown = npmCommands.filter((command) => {
      const [, verb, script] = /^npm (\S+)(?: (\S+))?/.exec(command)!;
      return verb === 'run' ? PACKAGE_SCRIPTS[script!] === undefined : !['ci', 'install', 'start', 'test'].includes(verb!);
    });
    expect(unknown).toEqual([]);
    expect(npmCommands.length).toBeGreaterThanOrEqual(10);
  });

  it('gives every variable of its configuration table the default the configuration has', () => {
    const section = README.slice(README.indexOf('## Configuration'), README.indexOf('\n## ', README.indexOf('## Configuration') + 1));
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    const wrong: string[] = [];
    for (const row of rows) {
      const [, names, stated] = row.split('|');
      const variables = [...names!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!);
      const values = stated!.split(' / ').map((value) => value.trim().replaceAll('`', ''));
      expect(values, row).toHaveLength(variables.length);
      variables.forEach((name, index) => {
        if (written[name] === undefined) wrong.push(`${name} is not a variable the configuration reads`);
        else if (written[name] !== values[index]) wrong.push(`${name}: README ${values[index]}, code ${written[name]}`);
      });
    }
    expect(wrong).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(10);
  });

  it('says the durations the configuration defaults to, the crawler pace among them', () => {
    const stated = [...README.matchAll(/`([A-Z][A-Z0-9_]*_(?:MS|S))` \((\d+|a|an) (ms|s|min|h|days?)\)/g)];
    const wrong = stated
      .map(([, name, count, unit]) => {
        const statedMs = (count === 'a' || count === 'an' ? 1 : Number(count)) * UNIT_MS[unit!]!;
        const defaultMs = Number(defaults[name as keyof Config]) * (name!.endsWith('_MS') ? 1 : 1000);
        return statedMs === defaultMs ? null : `${name}: README ${count} ${unit}, code ${defaultMs} ms`;
      })
      .filter((line) => line !== null);
    expect(wrong).toEqual([]);
    expect(stated.map(([, name]) => name)).toEqual(expect.arrayContaining(['CRAWL_INTERVAL_S', 'STALE_IF_ERROR_S']));
  });

  it('names everything npm test needs beyond npm', () => {
    const check = readFileSync(`${root}/scripts/checkTestRequirements.mjs`, 'utf8');
    const packages = [...check.matchAll(/&& '([a-z0-9-]+)'/g)].map((match) => match[1]!);
    expect(packages).toEqual(['chromium', 'redis-server', 'curl', 'python3-requests']);
    const sentence = /`npm test` needs ([^;]*);/.exec(README)?.[1]?.toLowerCase() ?? '';
    expect(packages.filter((name) => !sentence.includes(name))).toEqual([]);
  });

  it('runs test:unit without redis-server or any child process, as it says', async () => {
    expect(README).toMatch(/npm run test:unit .*\(.*no redis-server, no child process\)/);
    expect(PACKAGE_SCRIPTS['test:unit']).toBe('vitest run --config test/vitest.config.ts test/unit');
    // Every import kept; redis-server and every other program start through node:child_process.
    const tree = await importTree('test/unit/**/*.ts');
    const spawning = Object.entries(tree)
      .filter(([, dependencies]) => (dependencies ?? []).some((dependency) => /^(node:)?child_process$/.test(dependency.request)))
      .map(([file]) => file);
    expect(spawning).toEqual([]);
    expect(Object.keys(tree).length).toBeGreaterThan(100);
    // dpdm reads every unit file and what it imports: seconds on a loaded machine; the bound is for a hang.
  }, 60_000);
});

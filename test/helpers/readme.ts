import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Not through helpers/commandLine.ts, which starts programs: test/unit/readme.test.ts, which checks that test:unit starts none, reads this.
const root = fileURLToPath(new URL('../..', import.meta.url));

export const README = readFileSync(`${root}/README.md`, 'utf8');

export const PACKAGE_SCRIPTS = (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The commands of the README's bash blocks as a reader pastes them: one per line or `&&` link, without the comment after it. */
export function readmeCommands(): string[] {
  const commands: string[] = [];
  for (const [, block] of README.matchAll(/```bash\n([\s\S]*?)```/g)) {
    for (const line of block!.split('\n')) {
      const command = line.replace(/(^|\s)#\s.*$/, '').trim();
      if (command !== '') commands.push(...command.split(/\s+&&\s+/));
    }
  }
  return commands;
}

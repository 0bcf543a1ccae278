import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: where node_modules and its command-line tools are. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program to its end and hands back its exit code and output, whatever the exit code: a
 * linter exits 1 on a finding, and the test reads the finding. Killed after `timeoutMs`.
 */
export function runCommand(
  file: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd ?? REPO_ROOT,
        env: { ...process.env, ...options.env },
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number')
          reject(new Error(`${file} ${args.join(' ')} did not run to its end: ${error.message}\n${stderr}`));
        else resolve({ exitCode: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/** A command-line tool installed in node_modules, run with this Node. */
export const runNodeTool = (binPath: string, args: string[], options: Parameters<typeof runCommand>[2] = {}) =>
  runCommand(process.execPath, [`${REPO_ROOT}node_modules/${binPath}`, ...args], options);
